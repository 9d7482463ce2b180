// The webhooks' background work: the delivery loop in worker processes, and the log clean-up job.
import pino from 'pino';
import type { Kernel } from '../context';
import { forgetDispatchedBefore } from '../events/outbox';
import { deleteFinishedBefore } from './webhook-deliveries.repo';
import { DeliveryWorker } from './webhooks.worker';

export const WEBHOOK_LOG_CLEANUP = 'maintenance.webhook-log-cleanup';

/**
 * Deliveries run in a loop of their own in every worker process (webhooks.worker.ts), not as pg-boss
 * jobs: the deliveries table is the queue, so its rows are the retry schedule and the delivery log at
 * once, and a NOTIFY at commit starts the first attempt without waiting for a poll. pg-boss runs the
 * log clean-up.
 */
export async function registerWebhooksJobs(ctx: Kernel) {
  const { config } = ctx;
  await ctx.queue.define({ name: WEBHOOK_LOG_CLEANUP, retryLimit: 2 });
  await ctx.queue.work(WEBHOOK_LOG_CLEANUP, {}, async () => {
    await cleanUpWebhookLog(ctx);
  });
  await ctx.queue.schedule(WEBHOOK_LOG_CLEANUP, '41 * * * *');

  if (!ctx.queue.runsWorkers) return;
  const worker = new DeliveryWorker({
    database: ctx.database,
    clock: ctx.clock,
    net: ctx.net,
    mailer: ctx.mailer,
    outbox: ctx.outbox,
    sealingKey: ctx.secrets.sealing,
    appUrl: config.APP_URL,
    log: pino({ level: config.LOG_LEVEL, name: 'webhooks' }),
    settings: {
      retryDelays: config.WEBHOOK_RETRY_DELAYS,
      timeoutMs: config.WEBHOOK_TIMEOUT,
      disableAfterMs: config.WEBHOOK_DISABLE_AFTER,
      concurrency: config.WEBHOOK_CONCURRENCY,
      pollIntervalMs: config.WEBHOOK_POLL_INTERVAL,
    },
  });
  await worker.start();
  ctx.queue.onStop(() => worker.stop());
}

/** Drops finished deliveries (and their attempts) and dispatched events older than WEBHOOK_LOG_RETENTION. */
export async function cleanUpWebhookLog(ctx: Pick<Kernel, 'database' | 'clock' | 'config'>) {
  const before = new Date(ctx.clock.now().getTime() - ctx.config.WEBHOOK_LOG_RETENTION);
  const { db } = ctx.database;
  await deleteFinishedBefore(db, before);
  await forgetDispatchedBefore(db, before);
}
