// The hourly clean-up of the viewer's data: expired viewer sessions, and access log entries past ACCESS_LOG_RETENTION.
import type { Kernel } from '../context';
import * as repo from './viewer.repo';
import { registerViewPartitionsJob } from './view-partitions.jobs';

export const VIEWER_CLEANUP = 'maintenance.viewer-cleanup';

export async function registerViewerJobs(ctx: Kernel) {
  await ctx.queue.define({ name: VIEWER_CLEANUP, retryLimit: 2 });
  await ctx.queue.work(VIEWER_CLEANUP, {}, async () => {
    await cleanUpViewerData(ctx);
  });
  await ctx.queue.schedule(VIEWER_CLEANUP, '17 * * * *');
  await registerViewPartitionsJob(ctx);
}

/**
 * Deletes expired viewer sessions (their ingested event ids go with them: a dead session sends no more
 * events to de-duplicate; their views stay) and access log entries older than ACCESS_LOG_RETENTION.
 */
export async function cleanUpViewerData(ctx: Pick<Kernel, 'database' | 'clock' | 'config'>) {
  const now = ctx.clock.now();
  const { db } = ctx.database;
  const sessions = await repo.deleteExpiredSessions(db, now);
  const accessLog = await repo.deleteAccessLogBefore(db, new Date(now.getTime() - ctx.config.ACCESS_LOG_RETENTION));
  return { sessions, accessLog };
}
