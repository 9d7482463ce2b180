// Views are personal data kept only VIEW_RETENTION days: older whole UTC days of views and their roll-ups are deleted (whole months by dropping their partitions), the links' lifetime counters are kept.
import type { Kernel } from '../context';
import type { ModuleContext, Services } from '../module';
import * as repo from './retention.repo';

export const VIEW_RETENTION_JOB = 'maintenance.view-retention';
const BATCH = 5_000;

export interface RetentionResult {
  /** The first day kept (UTC, YYYY-MM-DD); null when VIEW_RETENTION is 0s (keep everything). */
  keptFrom: string | null;
  views: number;
  rollupRows: number;
}

/**
 * Deletes what the views of the days past VIEW_RETENTION left: the views with their step times (and so the
 * viewers' addresses, names, visitor ids, referrers and user agents they hold), and the analytics roll-ups
 * of those days, whose day viewer sets key viewers by address. Whole UTC days, so the figures that remain
 * equal what the remaining views give. The links' lifetime counters (`view_count`) keep counting them.
 */
export async function applyViewRetention(ctx: Pick<Kernel, 'database' | 'clock' | 'config'>): Promise<RetentionResult> {
  const retention = ctx.config.VIEW_RETENTION;
  if (retention <= 0) return { keptFrom: null, views: 0, rollupRows: 0 };
  const keptFrom = new Date(ctx.clock.now().getTime() - retention).toISOString().slice(0, 10);
  const before = new Date(`${keptFrom}T00:00:00.000Z`);
  const { db } = ctx.database;
  let views = 0;
  // Whole months first: two dropped tables each, whatever they held; what is left before `before` (part
  // of a month, and the DEFAULT partition) goes row by row.
  for (const month of await repo.monthsEndingBy(db, before)) views += await repo.dropMonth(ctx.database, month);
  for (const demoId of await repo.demosWithViewsBefore(db, before)) {
    for (let n = BATCH; n === BATCH; ) {
      n = await repo.deleteViewsBefore(db, demoId, before, BATCH);
      views += n;
    }
  }
  const rollups = await repo.deleteRollupsBefore(db, keptFrom);
  return { keptFrom, views, rollupRows: Object.values(rollups).reduce((a, b) => a + b, 0) };
}

/** Once a day, after the hourly viewer clean-up of :17 and before the audit log's retention at 3:43. */
export async function registerViewRetentionJob(ctx: ModuleContext<Services['viewerPrivacy']>) {
  // A run whose month gave way to readers' locks (retention.repo.ts) tries again a minute later, then two.
  await ctx.queue.define({ name: VIEW_RETENTION_JOB, retryLimit: 2, retryDelay: 60, retryBackoff: true });
  await ctx.queue.work(VIEW_RETENTION_JOB, {}, async () => {
    const result = await applyViewRetention(ctx);
    if (result.views > 0 || result.rollupRows > 0) ctx.log.info(result, 'views past VIEW_RETENTION deleted');
  });
  await ctx.queue.schedule(VIEW_RETENTION_JOB, '29 3 * * *');
}
