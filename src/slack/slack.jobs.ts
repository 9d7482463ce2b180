// Slack's background work: the send loop in worker processes, the daily digest and the log clean-up.
import pino from 'pino';
import type { ModuleContext, Services } from '../module';
import { SLACK_DIGEST_QUEUE } from './slack.digest';
import { deleteFinishedBefore } from './slack.repo';
import { slackWorker } from './slack.worker';

export const SLACK_LOG_CLEANUP = 'maintenance.slack-log-cleanup';

/**
 * Messages are sent by a loop of their own in every worker process, like webhook deliveries (the
 * messages table is the queue); pg-boss runs the digest (07:05 UTC) and the clean-up of messages older
 * than WEBHOOK_LOG_RETENTION.
 */
export async function registerSlackJobs(ctx: ModuleContext<Services['slack']>) {
  const { config } = ctx;
  await ctx.queue.define({ name: SLACK_DIGEST_QUEUE, retryLimit: 5, retryDelay: 300 });
  await ctx.queue.work(SLACK_DIGEST_QUEUE, {}, async () => {
    await ctx.services.slack.queueDigests();
  });
  await ctx.queue.schedule(SLACK_DIGEST_QUEUE, '5 7 * * *');
  await ctx.queue.define({ name: SLACK_LOG_CLEANUP, retryLimit: 2 });
  await ctx.queue.work(SLACK_LOG_CLEANUP, {}, async () => {
    await deleteFinishedBefore(ctx.database.db, new Date(ctx.clock.now().getTime() - config.WEBHOOK_LOG_RETENTION));
  });
  await ctx.queue.schedule(SLACK_LOG_CLEANUP, '43 * * * *');

  if (!ctx.queue.runsWorkers) return;
  const worker = slackWorker({
    database: ctx.database,
    clock: ctx.clock,
    net: ctx.net,
    sealingKey: ctx.secrets.sealing,
    mailer: ctx.mailer,
    appUrl: config.APP_URL,
    log: pino({ level: config.LOG_LEVEL, name: 'slack' }),
    settings: { retryDelays: config.WEBHOOK_RETRY_DELAYS, timeoutMs: config.WEBHOOK_TIMEOUT, pollIntervalMs: config.WEBHOOK_POLL_INTERVAL },
  });
  await worker.start();
  ctx.queue.onStop(() => worker.stop());
}
