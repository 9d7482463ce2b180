// Views, unique viewers (exact or estimated), completions and time over a range, with a zero-filled series.
import { estimate, mergeSketches } from '../core/hll';
import type { AnalyticsContext } from './analytics-context';
import * as repo from './analytics.repo';
import { type Granularity, periodStart, periodStarts } from './periods';

/**
 * Distinct viewers overall and per period. Exact from the viewer sets while the range holds few views
 * (or one version is asked for: sketches do not keep versions apart), else merged day sketches, whose
 * cost follows the days and not the views.
 *
 * @example
 * ```ts
 * const { total, byPeriod } = await uniqueViewers(ctx, { demoId }, range, 1200, 'week');
 * ```
 */
export async function uniqueViewers(
  ctx: Pick<AnalyticsContext, 'db' | 'exactViewersUpTo'>,
  target: repo.Target,
  range: repo.Range,
  views: number,
  granularity?: Granularity,
) {
  const { db } = ctx;
  if (views <= ctx.exactViewersUpTo || range.version !== undefined) return repo.exactViewers(db, target, range, granularity);
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

/**
 * Views, unique viewers, completions and time over the range of a demo or a workspace, and with a
 * granularity the series of every period of the range, empty ones included.
 *
 * @example
 * ```ts
 * const { totals, uniqueViewers, series } = await overallTotals(ctx, { workspaceId }, range, 'day');
 * ```
 */
export async function overallTotals(
  ctx: Pick<AnalyticsContext, 'db' | 'exactViewersUpTo'>,
  target: repo.Target,
  range: repo.Range,
  granularity?: Granularity,
) {
  const daily = await repo.dailyTotals(ctx.db, target, range);
  const totals = daily.reduce(
    (acc, d) => ({ views: acc.views + d.views, completions: acc.completions + d.completions, duration: acc.duration + d.durationSeconds }),
    { views: 0, completions: 0, duration: 0 },
  );
  const unique = await uniqueViewers(ctx, target, range, totals.views, granularity);
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
