import { lt } from 'drizzle-orm';
import type { AppContext } from '../context';
import { shareAccessLog, viewerSessions } from './shares.tables';

export const VIEWER_CLEANUP = 'maintenance.viewer-cleanup';

export async function registerSharesJobs(ctx: AppContext) {
  await ctx.queue.define({ name: VIEWER_CLEANUP, retryLimit: 2 });
  await ctx.queue.work(VIEWER_CLEANUP, {}, async () => {
    await cleanUpViewerData(ctx);
  });
  await ctx.queue.schedule(VIEWER_CLEANUP, '17 * * * *');
}

/**
 * Deletes expired viewer sessions (their ingested event ids go with them: a dead session sends no more
 * events to de-duplicate; their views stay) and access log entries older than ACCESS_LOG_RETENTION.
 */
export async function cleanUpViewerData(ctx: Pick<AppContext, 'database' | 'clock' | 'config'>) {
  const now = ctx.clock.now();
  const { db } = ctx.database;
  const sessions = await db.delete(viewerSessions).where(lt(viewerSessions.expiresAt, now)).returning({ id: viewerSessions.id });
  const log = await db
    .delete(shareAccessLog)
    .where(lt(shareAccessLog.at, new Date(now.getTime() - ctx.config.ACCESS_LOG_RETENTION)))
    .returning({ id: shareAccessLog.id });
  return { sessions: sessions.length, accessLog: log.length };
}
