// The scheduled re-check of verified custom domains: their DNS records must stay in place to keep being served.
import type { ModuleContext, Services } from '../module';

export const RECHECK_QUEUE = 'domains.recheck';

export async function registerDomainsJobs(ctx: ModuleContext<Services['domains']>) {
  await ctx.queue.define({ name: RECHECK_QUEUE, retryLimit: 0 });
  await ctx.queue.work(RECHECK_QUEUE, {}, async () => {
    const result = await ctx.services.domains.recheckDue(ctx.config.DOMAIN_RECHECK_INTERVAL);
    if (result.lost > 0) ctx.log.warn({ lost: result.lost }, 'custom domains lost their DNS records past the grace and are no longer served');
  });
  // Every 10 minutes, a batch of the domains whose last check is older than DOMAIN_RECHECK_INTERVAL.
  await ctx.queue.schedule(RECHECK_QUEUE, '*/10 * * * *');
}
