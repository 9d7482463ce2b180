import type { AuthContext } from '../auth/permissions';
import { isFreeMailDomain } from '../core/free-mail';
import { estimate, mergeSketches } from '../core/hll';
import { notFound } from '../core/errors';
import { resolveDateRange } from '../core/time';
import type { Database } from '../db/client';
import type { DemoReader } from '../demos/demos.reader';
import * as repo from './analytics.repo';
import { type Granularity, periodStart, periodStarts } from './periods';

export interface AnalyticsDeps {
  database: Pick<Database, 'db'>;
  demos: Pick<DemoReader, 'find' | 'versionStepCount' | 'versionStepTitles'>;
  /**
   * Up to this many views in the range, unique viewers are counted exactly from the day viewer sets;
   * beyond it they are estimated from the day sketches (HyperLogLog, standard error 1.6%).
   */
  exactViewersUpTo?: number;
}

export interface AnalyticsRange {
  startDate?: string;
  endDate?: string;
  includeInternal?: boolean;
}

export const EXACT_VIEWERS_UP_TO = 20_000;
const TOP_DEMOS = 10;
const OTHER_VIEWS = 20;

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : 0);
const seconds = (total: number, n: number) => (n > 0 ? Math.round((total / n) * 100) / 100 : 0);
const round = (n: number) => Math.round(n * 100) / 100;

export function createAnalyticsService(deps: AnalyticsDeps) {
  const { db } = deps.database;
  const exactUpTo = deps.exactViewersUpTo ?? EXACT_VIEWERS_UP_TO;

  async function requireDemo(auth: AuthContext, demoId: string) {
    const found = await deps.demos.find(auth.workspaceId, demoId);
    if (!found) throw notFound('Demo');
    return found;
  }

  /** Whole UTC days: a bound given as a timestamp counts its whole day. */
  function daysOf(range: AnalyticsRange & { version?: number }): repo.Range {
    const { from, to } = resolveDateRange(range.startDate, range.endDate);
    return {
      fromDay: from?.toISOString().slice(0, 10),
      toDay: to?.toISOString().slice(0, 10),
      includeInternal: range.includeInternal ?? false,
      version: range.version,
    };
  }

  /**
   * Distinct viewers overall and per period. Exact from the viewer sets while the range holds few views
   * (or one version is asked for: sketches do not keep versions apart), else merged day sketches, whose
   * cost follows the days and not the views.
   */
  async function uniqueViewers(target: repo.Target, range: repo.Range, views: number, granularity?: Granularity) {
    if (views <= exactUpTo || range.version !== undefined) return repo.exactViewers(db, target, range, granularity);
    const days = await repo.daySketches(db, target, range);
    const byPeriod = new Map<string, number>();
    if (granularity) {
      const periods = new Map<string, Uint8Array[]>();
      for (const d of days) {
        const key = periodStart(d.day, granularity);
        periods.set(key, [...(periods.get(key) ?? []), d.sketch]);
      }
      for (const [key, sketches] of periods) byPeriod.set(key, estimate(mergeSketches(sketches)));
    }
    return { total: estimate(mergeSketches(days.map((d) => d.sketch))), byPeriod };
  }

  /** Views, unique viewers, completions and time over the range, with a zero-filled series. */
  async function overall(target: repo.Target, range: repo.Range, granularity?: Granularity) {
    const daily = await repo.dailyTotals(db, target, range);
    const totals = daily.reduce(
      (acc, d) => ({ views: acc.views + d.views, completions: acc.completions + d.completions, duration: acc.duration + d.durationSeconds }),
      { views: 0, completions: 0, duration: 0 },
    );
    const unique = await uniqueViewers(target, range, totals.views, granularity);
    let series: { period_start: string; views: number; unique_viewers: number; completions: number }[] | undefined;
    if (granularity) {
      const periods = new Map<string, { views: number; completions: number }>();
      for (const d of daily) {
        const key = periodStart(d.day, granularity);
        const p = periods.get(key) ?? { views: 0, completions: 0 };
        p.views += d.views;
        p.completions += d.completions;
        periods.set(key, p);
      }
      // Every period of the range, empty ones included: a chart must not skip days. Without bounds, the
      // range runs from the first day with views to the last.
      const first = range.fromDay ?? daily[0]?.day;
      const last = range.toDay ?? daily.at(-1)?.day;
      series = (first && last ? periodStarts(first, last, granularity) : []).map((period_start) => ({
        period_start,
        views: periods.get(period_start)?.views ?? 0,
        unique_viewers: unique.byPeriod.get(period_start) ?? 0,
        completions: periods.get(period_start)?.completions ?? 0,
      }));
    }
    return { totals, uniqueViewers: unique.total, series };
  }

  /** GET /v1/demos/:id/analytics: O(days × steps) from the roll-ups. */
  async function demo(auth: AuthContext, demoId: string, query: AnalyticsRange & { granularity?: Granularity; version?: number }) {
    const found = await requireDemo(auth, demoId);
    const range = daysOf(query);
    // The steps of the version asked for, else of the one viewers are served, else of the draft.
    const count = await deps.demos.versionStepCount(demoId, query.version);
    if (query.version !== undefined && count === undefined) throw notFound('Version');
    const stepCount = count ?? found.stepCount;
    const [{ totals, uniqueViewers: unique, series }, steps] = await Promise.all([
      overall({ demoId }, range, query.granularity),
      repo.stepTotals(db, demoId, range),
    ]);
    const byStep = new Map(steps.map((s) => [s.stepNumber, s]));
    return {
      total_views: totals.views,
      unique_viewers: unique,
      completion_rate: ratio(totals.completions, totals.views),
      avg_time_seconds: seconds(totals.duration, totals.views),
      steps: Array.from({ length: stepCount }, (_, i) => {
        const s = byStep.get(i + 1);
        return {
          number: i + 1,
          views: s?.views ?? 0,
          avg_time: seconds(s?.seconds ?? 0, s?.views ?? 0),
          drop_off_rate: ratio(Math.max(0, s?.endedHere ?? 0), s?.views ?? 0),
        };
      }),
      ...(series ? { series } : {}),
    };
  }

  /** GET /v1/analytics: every demo of the workspace, and its busiest ones. */
  async function workspace(auth: AuthContext, query: AnalyticsRange & { granularity?: Granularity }) {
    const range = daysOf(query);
    const target = { workspaceId: auth.workspaceId };
    const [{ totals, uniqueViewers: unique, series }, top, demosViewed] = await Promise.all([
      overall(target, range, query.granularity),
      repo.demoTotals(db, auth.workspaceId, range, TOP_DEMOS),
      repo.countDemosViewed(db, auth.workspaceId, range),
    ]);
    // Unique viewers of each top demo: one query (or sketch merge) per demo, ten at most.
    const topViewers = await Promise.all(top.map((d) => uniqueViewers({ demoId: d.demoId }, range, d.views)));
    return {
      total_views: totals.views,
      unique_viewers: unique,
      completions: totals.completions,
      completion_rate: ratio(totals.completions, totals.views),
      avg_time_seconds: seconds(totals.duration, totals.views),
      demos_viewed: demosViewed,
      top_demos: top.map((d, i) => ({
        demo_id: d.demoId,
        title: d.title,
        views: d.views,
        unique_viewers: topViewers[i]!.total,
        completions: d.completions,
        completion_rate: ratio(d.completions, d.views),
      })),
      ...(series ? { series } : {}),
    };
  }

  /** GET /v1/demos/:id/analytics/links: which link (usually which prospect) engaged. */
  async function links(auth: AuthContext, demoId: string, query: AnalyticsRange) {
    await requireDemo(auth, demoId);
    const rows = await repo.linkTotals(db, demoId, daysOf(query));
    return rows.map((r) => ({
      share_id: r.shareId,
      name: r.name ?? '',
      revoked: r.revokedAt !== null,
      views: r.views,
      unique_viewers: r.viewers,
      completions: r.completions,
      completion_rate: ratio(r.completions, r.views),
      last_viewed_at: r.lastViewedAt.toISOString(),
    }));
  }

  /** GET /v1/demos/:id/analytics/companies: identified viewers by e-mail domain, free mail as individuals. */
  async function companies(auth: AuthContext, demoId: string, query: AnalyticsRange) {
    await requireDemo(auth, demoId);
    const rows = await repo.companyTotals(db, demoId, daysOf(query));
    const out: Array<{ company: string | null; kind: 'company' | 'individuals'; viewers: number; views: number; completions: number; lastSeen: Date }> = [];
    let individuals: (typeof out)[number] | undefined;
    for (const r of rows) {
      if (isFreeMailDomain(r.company)) {
        individuals ??= { company: null, kind: 'individuals', viewers: 0, views: 0, completions: 0, lastSeen: r.lastViewedAt };
        // One address has one domain: distinct addresses add up across free-mail domains.
        individuals.viewers += r.viewers;
        individuals.views += r.views;
        individuals.completions += r.completions;
        if (r.lastViewedAt > individuals.lastSeen) individuals.lastSeen = r.lastViewedAt;
      } else {
        out.push({ company: r.company, kind: 'company', viewers: r.viewers, views: r.views, completions: r.completions, lastSeen: r.lastViewedAt });
      }
    }
    if (individuals) out.push(individuals);
    out.sort((a, b) => b.views - a.views || b.lastSeen.getTime() - a.lastSeen.getTime() || String(a.company).localeCompare(String(b.company)));
    return out.map((c) => ({
      company: c.company,
      kind: c.kind,
      viewers: c.viewers,
      views: c.views,
      completions: c.completions,
      completion_rate: ratio(c.completions, c.views),
      last_seen_at: c.lastSeen.toISOString(),
    }));
  }

  /** GET /v1/demos/:id/views/:view_id/journey: one view step by step, and the viewer's other views. */
  async function journey(auth: AuthContext, demoId: string, viewId: string) {
    await requireDemo(auth, demoId);
    const found = await repo.findViewWithSteps(db, demoId, viewId);
    if (!found) throw notFound('View');
    const { view, steps } = found;
    const [titles, others] = await Promise.all([
      view.version ? deps.demos.versionStepTitles(demoId, view.version) : undefined,
      view.viewerEmail ? repo.otherViews(db, auth.workspaceId, view.id, view.viewerEmail, OTHER_VIEWS) : [],
    ]);
    return {
      view,
      steps: steps.map((s) => ({
        number: s.stepNumber,
        title: titles?.[s.stepNumber - 1] ?? null,
        seconds: round(s.seconds),
        first_reached_at: s.firstReachedAt.toISOString(),
      })),
      stepRows: steps,
      other_views: others.map((o) => ({
        id: o.id,
        demo_id: o.demoId,
        demo_title: o.demoTitle,
        started_at: o.startedAt.toISOString(),
        completed: o.completed,
        steps_viewed: o.stepsViewed,
        duration_seconds: round(o.durationSeconds),
      })),
    };
  }

  return { demo, workspace, links, companies, journey };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
