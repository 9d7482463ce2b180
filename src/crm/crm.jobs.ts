// The CRM's background work: the HubSpot sync loop in worker processes.
import pino from 'pino';
import type { Kernel } from '../context';
import { crmSyncWorker } from './crm.worker';

/**
 * The sync runs in a loop of its own in every worker process, as webhook deliveries do: the items table is
 * the queue, the retry schedule and the sync log at once, and a NOTIFY at commit starts it without a poll.
 */
export async function registerCrmJobs(ctx: Kernel) {
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
