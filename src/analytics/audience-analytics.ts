// GET /v1/demos/:id/analytics/links and /companies: who engaged with a demo, by share link and by company.
import type { AuthContext } from '../auth/permissions';
import { isFreeMailDomain } from '../core/free-mail';
import { type AnalyticsContext, type AnalyticsRange, daysOf, ratio, requireDemo } from './analytics-context';
import * as repo from './analytics.repo';

/**
 * Which link (usually which prospect) engaged: every link of the demo with a view in the range.
 *
 * @example
 * ```ts
 * const rows = await linkAnalytics(ctx, auth, 'demo_01j…', { startDate: '2026-11-01' });
 * ```
 */
export async function linkAnalytics(ctx: Pick<AnalyticsContext, 'db' | 'demos'>, auth: AuthContext, demoId: string, query: AnalyticsRange) {
  await requireDemo(ctx, auth, demoId);
  const rows = await repo.linkTotals(ctx.db, demoId, daysOf(query));
  return rows.map((r) => ({
    share_id: r.shareId,
    name: r.name ?? '',
    variables: (r.variables as Record<string, string> | null) ?? {},
    revoked: r.revokedAt !== null,
    views: r.views,
    unique_viewers: r.viewers,
    completions: r.completions,
    completion_rate: ratio(r.completions, r.views),
    last_viewed_at: r.lastViewedAt.toISOString(),
  }));
}

/**
 * Identified viewers by e-mail domain, free-mail domains together as `individuals`; most viewed first.
 *
 * @example
 * ```ts
 * const rows = await companyAnalytics(ctx, auth, 'demo_01j…', {}); // [{ company: 'acme.com', kind: 'company', … }]
 * ```
 */
export async function companyAnalytics(ctx: Pick<AnalyticsContext, 'db' | 'demos'>, auth: AuthContext, demoId: string, query: AnalyticsRange) {
  await requireDemo(ctx, auth, demoId);
  const rows = await repo.companyTotals(ctx.db, demoId, daysOf(query));
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
