// The webhooks' background work: the delivery loop in worker processes, and the log clean-up job.
import pino from 'pino';
import type { Kernel } from '../context';
import { DeliveryLoop } from '../core/delivery/delivery-loop';
import { EVENTS_CHANNEL } from '../db/channels';
import { forgetDispatchedBefore } from '../events/outbox';
import * as deliveries from './webhook-deliveries.repo';
import { attemptDelivery } from './webhooks.attempt';
import { dispatchBatch } from './webhooks.dispatcher';

export const WEBHOOK_LOG_CLEANUP = 'maintenance.webhook-log-cleanup';

/**
 * Deliveries run in a loop of their own in every worker process (core/delivery), not as pg-boss jobs: the
 * deliveries table is the queue, so its rows are the retry schedule and the delivery log at once, and the
 * NOTIFY that emitEvent sends at commit starts the first attempt without waiting for a poll. Each round
 * fans the outbox out (dispatchBatch) before claiming due deliveries, which webhooks.attempt.ts attempts,
 * up to WEBHOOK_CONCURRENCY at once. pg-boss runs the log clean-up.
 */
export async function registerWebhooksJobs(ctx: Kernel) {
  const { config } = ctx;
  await ctx.queue.define({ name: WEBHOOK_LOG_CLEANUP, retryLimit: 2 });
  await ctx.queue.work(WEBHOOK_LOG_CLEANUP, {}, async () => {
    await cleanUpWebhookLog(ctx);
  });
  await ctx.queue.schedule(WEBHOOK_LOG_CLEANUP, '41 * * * *');

  if (!ctx.queue.runsWorkers) return;
  const deps = {
    database: ctx.database,
    clock: ctx.clock,
    net: ctx.net,
    mailer: ctx.mailer,
    sealingKey: ctx.secrets.sealing,
    appUrl: config.APP_URL,
    log: pino({ level: config.LOG_LEVEL, name: 'webhooks' }),
    settings: {
      retryDelays: config.WEBHOOK_RETRY_DELAYS,
      timeoutMs: config.WEBHOOK_TIMEOUT,
      disableAfterMs: config.WEBHOOK_DISABLE_AFTER,
      pollIntervalMs: config.WEBHOOK_POLL_INTERVAL,
    },
  };
  const worker = new DeliveryLoop(deps, {
    name: 'webhook delivery',
    channel: EVENTS_CHANNEL,
    concurrency: config.WEBHOOK_CONCURRENCY,
    // The outbox's other readers (Slack, CRM) run in each dispatch's transaction.
    prepare: (db, now) => dispatchBatch(db, now, config.WEBHOOK_RETRY_DELAYS.length + 1, ctx.outbox),
    claimDue: deliveries.claimDue,
    nextDueAt: deliveries.nextDueAt,
    attempt: (claim) => attemptDelivery(deps, claim),
    logFields: (claim) => ({ delivery_id: claim.id }),
  });
  await worker.start();
  ctx.queue.onStop(() => worker.stop());
}

/** Drops finished deliveries (and their attempts) and dispatched events older than WEBHOOK_LOG_RETENTION. */
export async function cleanUpWebhookLog(ctx: Pick<Kernel, 'database' | 'clock' | 'config'>) {
  const before = new Date(ctx.clock.now().getTime() - ctx.config.WEBHOOK_LOG_RETENTION);
  const { db } = ctx.database;
  await deliveries.deleteFinishedBefore(db, before);
  await forgetDispatchedBefore(db, before);
}
