import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
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

export function createViewsService(deps: ViewsDeps) {
  const { db } = deps.database;

  async function requireDemo(auth: AuthContext, demoId: string) {
    const found = await deps.demos.find(auth.workspaceId, demoId);
    if (!found) throw notFound('Demo');
    return found;
  }

  function resolveRange(range: DateRange) {
    return {
      from: range.startDate ? resolveDateFilter(range.startDate, false) : undefined,
      to: range.endDate ? resolveDateFilter(range.endDate, true) : undefined,
    };
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
   * GET /v1/demos/:id/analytics from the daily aggregates: O(days × steps). The range is applied in whole
   * UTC days (the days its ends fall on); unique viewers are counted from the views in the exact range.
   * Rollups are kept per version: with `version`, the figures are those of its views alone.
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
      repo.uniqueViewers(db, demoId, from, to, range.granularity, version),
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
      result.series = [...periods.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([period_start, p]) => ({
          period_start,
          views: p.views,
          unique_viewers: unique.byPeriod.get(period_start) ?? 0,
          completions: p.completions,
        }));
    }
    return result;
  }

  return { list, analytics };
}

export type ViewsService = ReturnType<typeof createViewsService>;
