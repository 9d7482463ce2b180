// The hourly clean-up of expired web sessions.
import type { Kernel } from '../context';
import { deleteExpiredSessions } from './accounts.repo';

export const SESSION_CLEANUP = 'maintenance.sessions-cleanup';

/**
 * Deletes expired sessions every hour so the table only holds live ones.
 *
 * @example
 * await registerAccountsJobs(kernel); // accountsModule.jobs; the queue runs it at minute 17 of each hour
 */
export async function registerAccountsJobs(ctx: Kernel) {
  await ctx.queue.define({ name: SESSION_CLEANUP, retryLimit: 2 });
  await ctx.queue.work(SESSION_CLEANUP, {}, async () => {
    await deleteExpiredSessions(ctx.database.db, ctx.clock.now());
  });
  await ctx.queue.schedule(SESSION_CLEANUP, '17 * * * *');
}
