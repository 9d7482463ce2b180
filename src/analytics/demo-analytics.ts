// GET /v1/demos/:id/analytics: a demo's totals, per-step figures and optional series, from the roll-ups.
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import { type AnalyticsContext, type AnalyticsRange, daysOf, ratio, requireDemo, seconds } from './analytics-context';
import * as repo from './analytics.repo';
import type { Granularity } from './periods';
import { overallTotals } from './totals';

/**
 * One demo's figures: O(days × steps) from the roll-ups. Steps are those of the version asked for, else
 * of the one viewers are served, else of the draft.
 *
 * @example
 * ```ts
 * const figures = await demoAnalytics(ctx, auth, 'demo_01j…', { startDate: '2026-11-01', granularity: 'day' });
 * ```
 */
export async function demoAnalytics(
  ctx: AnalyticsContext,
  auth: AuthContext,
  demoId: string,
  query: AnalyticsRange & { granularity?: Granularity; version?: number },
) {
  const found = await requireDemo(ctx, auth, demoId);
  const range = daysOf(query);
  // The steps of the version asked for, else of the one viewers are served, else of the draft.
  const count = await ctx.demos.versionStepCount(demoId, query.version);
  if (query.version !== undefined && count === undefined) throw notFound('Version');
  const stepCount = count ?? found.stepCount;
  const [{ totals, uniqueViewers: unique, series }, steps, played] = await Promise.all([
    overallTotals(ctx, { demoId }, range, query.granularity),
    repo.stepTotals(ctx.db, demoId, range),
    repo.versionsPlayed(ctx.db, demoId, range),
  ]);
  const byStep = new Map(steps.map((s) => [s.stepNumber, s]));
  const titles = await playedTitles(ctx, demoId, query.version !== undefined ? [query.version] : played);
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
        title: titles(i + 1),
      };
    }),
    versions_played: played,
    ...(series ? { series } : {}),
  };
}

/**
 * Step titles as the views saw them: from the versions they played, never from today's draft (whose step 2
 * may be another step than the one counted). A number the versions name differently gets no title; so
 * does one no version played has.
 */
async function playedTitles(ctx: AnalyticsContext, demoId: string, versions: number[]) {
  const known = versions.filter((v) => v > 0);
  const lists = (await Promise.all(known.map((v) => ctx.demos.versionStepTitles(demoId, v)))).filter((l) => l !== undefined);
  return (number: number): string | null => {
    const names = new Set(lists.map((l) => l[number - 1]).filter((t) => t !== undefined));
    return names.size === 1 ? [...names][0]! : null;
  };
}
