// What every analytics figure is computed with: the database, the demos reader, the exact-count threshold; and the shared range and rounding.
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import { resolveDateRange } from '../core/time';
import type { Database } from '../db/client';
import type { ReadRouting } from '../db/read-replica';
import type { DemoReader } from '../demos/demos.reader';
import type * as repo from './analytics.repo';

/**
 * The analytics service's dependencies, as `analytics.module.ts` builds them.
 *
 * @example
 * ```ts
 * createAnalyticsService({ ...kernel, demos: deps.demos.reader, exactViewersUpTo: kernel.config.ANALYTICS_EXACT_VIEWERS_UP_TO });
 * ```
 */
export interface AnalyticsDeps {
  database: Pick<Database, 'db'>;
  /** Where the figures are read (the replica when fit); absent: `database`. */
  reads?: Pick<ReadRouting, 'reader'>;
  demos: Pick<DemoReader, 'find' | 'versionStepCount' | 'versionStepTitles' | 'versionSnapshot'>;
  /**
   * Up to this many views in the range, unique viewers are counted exactly from the day viewer sets;
   * beyond it they are estimated from the day sketches (HyperLogLog, standard error 1.6%).
   */
  exactViewersUpTo?: number;
}

/** The context each figure's function takes first (each names the part it uses with `Pick`). */
export interface AnalyticsContext {
  db: Database['db'];
  demos: AnalyticsDeps['demos'];
  exactViewersUpTo: number;
}

/** The query every figure shares: whole UTC days, internal traffic left out unless asked. */
export interface AnalyticsRange {
  startDate?: string;
  endDate?: string;
  includeInternal?: boolean;
}

/** The default of ANALYTICS_EXACT_VIEWERS_UP_TO. */
export const EXACT_VIEWERS_UP_TO = 20_000;

/** A share of `b`, to four decimals; 0 when `b` is 0. */
export const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : 0);
/** Mean seconds, to two decimals; 0 when `n` is 0. */
export const seconds = (total: number, n: number) => (n > 0 ? Math.round((total / n) * 100) / 100 : 0);
/** Seconds to two decimals, as every figure answers them. */
export const round = (n: number) => Math.round(n * 100) / 100;

/** The caller's demo, or a 404 (another workspace's demo does not exist for them). */
export async function requireDemo(ctx: Pick<AnalyticsContext, 'demos'>, auth: AuthContext, demoId: string) {
  const found = await ctx.demos.find(auth.workspaceId, demoId);
  if (!found) throw notFound('Demo');
  return found;
}

/** Whole UTC days: a bound given as a timestamp counts its whole day. */
export function daysOf(range: AnalyticsRange & { version?: number }): repo.Range {
  const { from, to } = resolveDateRange(range.startDate, range.endDate);
  return {
    fromDay: from?.toISOString().slice(0, 10),
    toDay: to?.toISOString().slice(0, 10),
    includeInternal: range.includeInternal ?? false,
    version: range.version,
  };
}
