import type { AuthContext } from '../auth/permissions';
import { invalid, notFound } from '../core/errors';
import { resolveDateFilter } from '../core/time';
import type { Database } from '../db/client';
import type { DemoReader } from '../demos/demos.reader';
import * as repo from './views.repo';

export interface ViewsDeps {
  database: Pick<Database, 'db'>;
  demos: Pick<DemoReader, 'find' | 'versionStepCount'>;
}

export interface DateRange {
  startDate?: string;
  endDate?: string;
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : 0);
const seconds = (total: number, n: number) => (n > 0 ? Math.round((total / n) * 100) / 100 : 0);

/** The first day of the period (UTC) that `day` (YYYY-MM-DD) falls in; weeks start on Monday. */
export function periodStart(day: string, granularity: 'day' | 'week' | 'month'): string {
  if (granularity === 'day') return day;
  if (granularity === 'month') return `${day.slice(0, 7)}-01`;
  const date = new Date(`${day}T00:00:00.000Z`);
  const offset = (date.getUTCDay() + 6) % 7;
  return new Date(date.getTime() - offset * 86_400_000).toISOString().slice(0, 10);
}

/** A series answers at most this many periods: ten years of days. */
export const MAX_PERIODS = 3_660;

/** The start of every period from the one `first` falls in to the one `last` falls in (YYYY-MM-DD, UTC). */
export function periodStarts(first: string, last: string, granularity: 'day' | 'week' | 'month'): string[] {
  const out: string[] = [];
  const end = periodStart(last, granularity);
  let at = periodStart(first, granularity);
  while (at <= end) {
    out.push(at);
    if (out.length > MAX_PERIODS) {
      throw invalid(`This range has more than ${MAX_PERIODS} periods of a ${granularity}: choose a shorter range or a coarser granularity`, [
        { field: 'granularity', message: `more than ${MAX_PERIODS} periods in the range` },
      ]);
    }
    const date = new Date(`${at}T00:00:00.000Z`);
    if (granularity === 'day') date.setUTCDate(date.getUTCDate() + 1);
    else if (granularity === 'week') date.setUTCDate(date.getUTCDate() + 7);
    else date.setUTCMonth(date.getUTCMonth() + 1);
    at = date.toISOString().slice(0, 10);
  }
  return out;
}

export function createViewsService(deps: ViewsDeps) {
  const { db } = deps.database;

  async function requireDemo(auth: AuthContext, demoId: string) {
    const found = await deps.demos.find(auth.workspaceId, demoId);
    if (!found) throw notFound('Demo');
    return found;
  }

  /** The range's instants; an end before the start is a 400 that names both. */
  function resolveRange(range: DateRange) {
    const from = range.startDate ? resolveDateFilter(range.startDate, false) : undefined;
    const to = range.endDate ? resolveDateFilter(range.endDate, true) : undefined;
    if (from && to && to < from) {
      throw invalid('end_date is before start_date', [
        { field: 'start_date', message: 'must be on or before end_date' },
        { field: 'end_date', message: 'must be on or after start_date' },
      ]);
    }
    return { from, to };
  }

  async function list(
    auth: AuthContext,
    demoId: string,
    filter: DateRange & { viewerEmail?: string; version?: number },
    page: { limit: number; offset: number },
  ) {
    await requireDemo(auth, demoId);
    const { from, to } = resolveRange(filter);
    return repo.listViews(db, demoId, { from, to, viewerEmail: filter.viewerEmail, version: filter.version }, page);
  }

  /**
   * The steps the figures are given for: those of the version asked for, else of the version viewers are
   * served (the newest), else of the draft (never published: no views).
   */
  async function stepNumbers(demoId: string, draftSteps: number, version: number | undefined) {
    const count = await deps.demos.versionStepCount(demoId, version);
    if (version !== undefined && count === undefined) throw notFound('Version');
    return count ?? draftSteps;
  }

  /**
   * GET /v1/demos/:id/analytics from the daily roll-ups: O(days × steps), and the day's viewer sets for
   * unique viewers. Every figure uses whole UTC days: a bound given as a timestamp counts its whole day.
   * Roll-ups are kept per version: with `version`, the figures are those of its views alone.
   */
  async function analytics(
    auth: AuthContext,
    demoId: string,
    range: DateRange & { granularity?: 'day' | 'week' | 'month'; version?: number },
  ) {
    const found = await requireDemo(auth, demoId);
    const { version } = range;
    const stepCount = await stepNumbers(demoId, found.stepCount, version);
    const { from, to } = resolveRange(range);
    const fromDay = from?.toISOString().slice(0, 10);
    const toDay = to?.toISOString().slice(0, 10);
    const [daily, steps, unique] = await Promise.all([
      repo.dailyTotals(db, demoId, fromDay, toDay, version),
      repo.stepTotals(db, demoId, fromDay, toDay, version),
      repo.uniqueViewers(db, demoId, fromDay, toDay, range.granularity, version),
    ]);
    const totals = daily.reduce(
      (acc, d) => ({
        views: acc.views + d.views,
        completions: acc.completions + d.completions,
        duration: acc.duration + d.durationSeconds,
      }),
      { views: 0, completions: 0, duration: 0 },
    );
    const byStep = new Map(steps.map((s) => [s.stepNumber, s]));
    const numbers = Array.from({ length: stepCount }, (_, i) => i + 1);
    const result: {
      total_views: number;
      unique_viewers: number;
      completion_rate: number;
      avg_time_seconds: number;
      steps: { number: number; views: number; avg_time: number; drop_off_rate: number }[];
      series?: { period_start: string; views: number; unique_viewers: number; completions: number }[];
    } = {
      total_views: totals.views,
      unique_viewers: unique.total,
      completion_rate: ratio(totals.completions, totals.views),
      avg_time_seconds: seconds(totals.duration, totals.views),
      steps: numbers.map((number) => {
        const s = byStep.get(number);
        return {
          number,
          views: s?.views ?? 0,
          avg_time: seconds(s?.seconds ?? 0, s?.views ?? 0),
          drop_off_rate: ratio(Math.max(0, s?.endedHere ?? 0), s?.views ?? 0),
        };
      }),
    };
    if (range.granularity) {
      const periods = new Map<string, { views: number; completions: number }>();
      for (const d of daily) {
        const key = periodStart(d.day, range.granularity);
        const p = periods.get(key) ?? { views: 0, completions: 0 };
        p.views += d.views;
        p.completions += d.completions;
        periods.set(key, p);
      }
      // Every period of the range, empty ones included: a chart must not skip days. Without bounds, the
      // range runs from the first day with views to the last.
      const first = fromDay ?? daily[0]?.day;
      const last = toDay ?? daily.at(-1)?.day;
      const starts = first && last ? periodStarts(first, last, range.granularity) : [];
      result.series = starts.map((period_start) => ({
        period_start,
        views: periods.get(period_start)?.views ?? 0,
        unique_viewers: unique.byPeriod.get(period_start) ?? 0,
        completions: periods.get(period_start)?.completions ?? 0,
      }));
    }
    return result;
  }

  return { list, analytics };
}

export type ViewsService = ReturnType<typeof createViewsService>;
