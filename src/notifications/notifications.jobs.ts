import type { ModuleContext, Services } from '../module';
import { DIGEST_QUEUE } from './daily-digest';
import { type IdentifiedJob, VIEWER_QUEUE } from './viewer-notices';
import { LEAD_QUEUE, type LeadJob } from './lead-notices';
import { HUB_QUEUE, type HubVisitorJob } from './hub-notices';

/** Viewer, lead and hub-visitor notices as they come, and the daily digests at 07:00 UTC (about the day before). */
export async function registerNotificationJobs(ctx: ModuleContext<Services['notifications']>) {
  const { notifications } = ctx.services;
  await ctx.queue.define({ name: VIEWER_QUEUE, retryLimit: 10, retryDelay: 30, retryBackoff: true });
  await ctx.queue.work<IdentifiedJob>(VIEWER_QUEUE, { pollingIntervalSeconds: 1 }, async (job) => {
    await notifications.sendViewerNotices(job);
  });
  await ctx.queue.define({ name: LEAD_QUEUE, retryLimit: 10, retryDelay: 30, retryBackoff: true });
  await ctx.queue.work<LeadJob>(LEAD_QUEUE, { pollingIntervalSeconds: 1 }, async (job) => {
    await notifications.sendLeadNotices(job);
  });
  await ctx.queue.define({ name: HUB_QUEUE, retryLimit: 10, retryDelay: 30, retryBackoff: true });
  await ctx.queue.work<HubVisitorJob>(HUB_QUEUE, { pollingIntervalSeconds: 1 }, async (job) => {
    await notifications.sendHubNotices(job);
  });
  await ctx.queue.define({ name: DIGEST_QUEUE, retryLimit: 5, retryDelay: 300 });
  await ctx.queue.work(DIGEST_QUEUE, {}, async () => {
    await notifications.sendDigests();
  });
  await ctx.queue.schedule(DIGEST_QUEUE, '0 7 * * *');
}
