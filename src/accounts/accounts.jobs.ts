import { lt } from 'drizzle-orm';
import type { AppContext } from '../context';
import { sessions } from './accounts.tables';

export const SESSION_CLEANUP = 'maintenance.sessions-cleanup';

/** Deletes expired sessions every hour so the table only holds live ones. */
export async function registerAccountsJobs(ctx: AppContext) {
  await ctx.queue.define({ name: SESSION_CLEANUP, retryLimit: 2 });
  await ctx.queue.work(SESSION_CLEANUP, {}, async () => {
    await ctx.database.db.delete(sessions).where(lt(sessions.expiresAt, ctx.clock.now()));
  });
  await ctx.queue.schedule(SESSION_CLEANUP, '17 * * * *');
}
