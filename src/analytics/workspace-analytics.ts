// GET /v1/analytics: every demo of the workspace together, and its ten busiest.
import type { AuthContext } from '../auth/permissions';
import { type AnalyticsContext, type AnalyticsRange, daysOf, ratio, seconds } from './analytics-context';
import * as repo from './analytics.repo';
import type { Granularity } from './periods';
import { overallTotals, uniqueViewers } from './totals';

const TOP_DEMOS = 10;

/**
 * The workspace overview: totals, an optional series, how many demos were viewed, and the top demos with
 * their own unique viewers.
 *
 * @example
 * ```ts
 * const overview = await workspaceAnalytics(ctx, auth, { startDate: '2026-11-01', endDate: '2026-11-30' });
 * ```
 */
export async function workspaceAnalytics(
  ctx: Pick<AnalyticsContext, 'db' | 'exactViewersUpTo'>,
  auth: AuthContext,
  query: AnalyticsRange & { granularity?: Granularity },
) {
  const { db } = ctx;
  const range = daysOf(query);
  const target = { workspaceId: auth.workspaceId };
  const [{ totals, uniqueViewers: unique, series }, top, demosViewed] = await Promise.all([
    overallTotals(ctx, target, range, query.granularity),
    repo.demoTotals(db, auth.workspaceId, range, TOP_DEMOS),
    repo.countDemosViewed(db, auth.workspaceId, range),
  ]);
  // Unique viewers of each top demo: one query (or sketch merge) per demo, ten at most.
  const topViewers = await Promise.all(top.map((d) => uniqueViewers(ctx, { demoId: d.demoId }, range, d.views)));
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
