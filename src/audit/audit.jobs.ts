import type { ModuleContext, Services } from '../module';

export const AUDIT_RETENTION = 'maintenance.audit-log-retention';

/** Deletes entries older than AUDIT_LOG_RETENTION once a day, through the trigger's one allowed path. */
export async function registerAuditJobs(ctx: ModuleContext<Services['audit']>) {
  await ctx.queue.define({ name: AUDIT_RETENTION, retryLimit: 2 });
  await ctx.queue.work(AUDIT_RETENTION, {}, async () => {
    const deleted = await ctx.services.audit.applyRetention();
    if (deleted > 0) ctx.log.info({ deleted }, 'audit log entries past their retention deleted');
  });
  await ctx.queue.schedule(AUDIT_RETENTION, '43 3 * * *');
}
