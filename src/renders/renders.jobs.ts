// The render queue: one job per render asked for, worked RENDER_CONCURRENCY at a time per worker process.
import type { ModuleContext, Services } from '../module';
import { RENDER_QUEUE } from './renders.service';

/**
 * Defines the render queue and, in worker processes, works it; reports ffmpeg once at start-up (a plain
 * line when it is missing: renders then answer 503 `ffmpeg_missing`). A job whose worker was lost is
 * retried (it starts the render over); a render that fails says why in its row, not by a retry.
 */
export async function registerRendersJobs(ctx: ModuleContext<Services['renders']>) {
  const { renders } = ctx.services;
  void renders.context.ffmpeg().then((found) => {
    if (found.missing) ctx.log.warn(found.missing);
    else if (ctx.queue.runsWorkers) ctx.log.info(`video renders use ${found.version} (${found.path})`);
  });
  await ctx.queue.define({ name: RENDER_QUEUE, retryLimit: 2, retryDelay: 5, expireInSeconds: Math.ceil(ctx.config.RENDER_TIMEOUT / 1000) + 120 });
  await ctx.queue.work<{ renderId: string }>(RENDER_QUEUE, { concurrency: ctx.config.RENDER_CONCURRENCY, pollingIntervalSeconds: 1 }, async (data) => {
    await renders.run(data.renderId);
  });
}
