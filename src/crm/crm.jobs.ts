// The CRM's background work: the HubSpot sync loop in worker processes, and the sync log's clean-up.
import pino from 'pino';
import type { Kernel } from '../context';
import { deleteFinishedBefore } from './crm.repo';
import { crmSyncWorker } from './crm.worker';

export const CRM_LOG_CLEANUP = 'maintenance.crm-log-cleanup';

/**
 * The sync runs in a loop of its own in every worker process, as webhook deliveries do: the items table is
 * the queue, the retry schedule and the sync log at once, and a NOTIFY at commit starts it without a poll.
 * pg-boss runs the log's clean-up (finished items older than WEBHOOK_LOG_RETENTION), as for webhooks.
 */
export async function registerCrmJobs(ctx: Kernel) {
  await ctx.queue.define({ name: CRM_LOG_CLEANUP, retryLimit: 2 });
  await ctx.queue.work(CRM_LOG_CLEANUP, {}, async () => {
    await cleanUpCrmLog(ctx);
  });
  await ctx.queue.schedule(CRM_LOG_CLEANUP, '47 * * * *');

  if (!ctx.queue.runsWorkers) return;
  const { config } = ctx;
  const worker = crmSyncWorker({
    database: ctx.database,
    clock: ctx.clock,
    sealingKey: ctx.secrets.sealing,
    log: pino({ level: config.LOG_LEVEL, name: 'crm' }),
    settings: {
      apiUrl: config.HUBSPOT_API_URL,
      retryDelays: config.WEBHOOK_RETRY_DELAYS,
      timeoutMs: config.WEBHOOK_TIMEOUT,
      pollIntervalMs: config.WEBHOOK_POLL_INTERVAL,
    },
  });
  await worker.start();
  ctx.queue.onStop(() => worker.stop());
}

/** Drops the sync log's finished items completed more than WEBHOOK_LOG_RETENTION ago; answers how many. */
export function cleanUpCrmLog(ctx: Pick<Kernel, 'database' | 'clock' | 'config'>): Promise<number> {
  return deleteFinishedBefore(ctx.database.db, new Date(ctx.clock.now().getTime() - ctx.config.WEBHOOK_LOG_RETENTION));
}
