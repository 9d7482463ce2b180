// A hub's figures: visits, demos opened, and the views and completions of its entry links, per entry and per day.
import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { notFound } from '../core/errors';
import type { Database } from '../db/client';
import type { ReadRouting } from '../db/read-replica';
import * as visits from './hub-visits.repo';
import * as repo from './hubs.repo';

const DAY = 86_400_000;

/**
 * Hub analytics over [from, to] (default: the last 30 days). Views and completions are those of the
 * hub's entry links (every view through a hub goes through one), so they also count for their demos.
 * Members' own visits and views are left out.
 *
 * @example
 * const figures = await createHubAnalytics(kernel).figures(auth, hubId, { from: undefined, to: undefined });
 */
export function createHubAnalytics(deps: { database: Pick<Database, 'db'>; clock: Clock; reads?: Pick<ReadRouting, 'reader'> }) {
  async function figures(auth: AuthContext, hubId: string, range: { from?: Date; to?: Date }) {
    // Figures, like the analytics module's: read where the replica may serve them (db/read-replica.ts).
    const db = deps.reads?.reader(auth.workspaceId) ?? deps.database.db;
    const hub = await repo.findHub(db, auth.workspaceId, hubId);
    if (!hub) throw notFound('Hub');
    // Inclusive bound (the end day's last millisecond, or this very instant): one past it would be year
    // 10000 for end_date=9999-12-31, which PostgreSQL cannot take.
    const to = range.to ?? deps.clock.now();
    const from = range.from ?? new Date(to.getTime() - 30 * DAY);
    const entries = await repo.listEntries(db, hub.id);
    const [totals, opens, byLink, daysV, daysO, recent] = await Promise.all([
      visits.visitTotals(db, hub.id, from, to),
      visits.opensByEntry(db, hub.id, from, to),
      visits.viewsByLink(db, [...new Set(entries.map((e) => e.entry.shareId))], from, to),
      visits.dailyVisits(db, hub.id, from, to),
      visits.dailyOpens(db, hub.id, from, to),
      visits.recentVisitors(db, hub.id, 20),
    ]);
    const opensOf = new Map(opens.map((o) => [o.entryId, o.opens]));
    const viewsOf = new Map(byLink.map((v) => [v.shareId, v]));
    const perEntry = entries.map((e) => ({
      entryId: e.entry.id,
      demoId: e.entry.demoId,
      title: e.entry.title ?? e.demoTitle,
      opens: opensOf.get(e.entry.id) ?? 0,
      views: viewsOf.get(e.entry.shareId)?.views ?? 0,
      completions: viewsOf.get(e.entry.shareId)?.completions ?? 0,
    }));
    const views = perEntry.reduce((n, e) => n + e.views, 0);
    const completions = perEntry.reduce((n, e) => n + e.completions, 0);
    const days = new Map<string, { visits: number; opens: number }>();
    for (const d of daysV) days.set(d.day, { visits: d.visits, opens: 0 });
    for (const d of daysO) days.set(d.day, { visits: days.get(d.day)?.visits ?? 0, opens: d.opens });
    return {
      from,
      to,
      visits: totals.visits,
      identifiedVisitors: totals.identified,
      demosOpened: opens.reduce((n, o) => n + o.opens, 0),
      views,
      completions,
      completionRate: views === 0 ? 0 : completions / views,
      entries: perEntry,
      series: [...days.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, v]) => ({ day, ...v })),
      recentVisitors: recent,
    };
  }

  return { figures };
}

export type HubAnalytics = ReturnType<typeof createHubAnalytics>;
