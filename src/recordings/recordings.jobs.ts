// The sweep that deletes expired recording uploads.
import type { ModuleContext, Services } from '../module';

export const RECORDINGS_SWEEP = 'maintenance.recordings-expiry';

/**
 * Deletes recordings past their expiry (24 hours after creation), with the steps they hold, every quarter
 * of an hour. Until then an expired one answers 410 and cannot complete: the sweep only frees the space.
 */
export async function registerRecordingsJobs(ctx: ModuleContext<Services['recordings']>) {
  await ctx.queue.define({ name: RECORDINGS_SWEEP, retryLimit: 2 });
  await ctx.queue.work(RECORDINGS_SWEEP, {}, async () => {
    const deleted = await ctx.services.recordings.sweepExpired();
    if (deleted > 0) ctx.log.info({ deleted }, 'expired recording uploads deleted');
  });
  await ctx.queue.schedule(RECORDINGS_SWEEP, '*/15 * * * *');
}
