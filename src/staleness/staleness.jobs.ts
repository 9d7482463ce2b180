// The check worker (one check at a time per process, bounded by its deadline) and the schedule sweep that queues due checks.
import type { Kernel } from '../context';
import type { DemoReader } from '../demos/demos.reader';
import type { RecaptureDeps } from './recapture';
import { runCheck } from './run-check';
import * as repo from './staleness.repo';
import { DEFAULT_BOX_THRESHOLD_PX, DEFAULT_IMAGE_THRESHOLD } from './staleness.schemas';
import { CHECK_QUEUE, nextRunAfter, queueCheck } from './staleness.service';

export const SCHEDULE_QUEUE = 'staleness.schedule';
/** Due schedules taken per sweep; the rest wait for the next one. */
const SWEEP_BATCH = 50;

export async function registerStalenessJobs(ctx: Kernel & { reader: Pick<DemoReader, 'draft' | 'asset'>; recapture: RecaptureDeps }) {
  // A check's own deadline is at most 5 minutes; a worker that dies mid-check leaves the job to expire and run again.
  await ctx.queue.define({ name: CHECK_QUEUE, retryLimit: 1, retryDelay: 30, expireInSeconds: 7 * 60 });
  await ctx.queue.define({ name: SCHEDULE_QUEUE, retryLimit: 0 });
  const deps = {
    database: ctx.database,
    clock: ctx.clock,
    reader: ctx.reader,
    recapture: ctx.recapture,
    query: (html: string, selectors: string[], known?: string[]) =>
      ctx.documents.run('queryTargets', [html, selectors, known], { field: 'page_url', what: 'The captured page' }),
    mailQueue: ctx.mailQueue,
    appUrl: ctx.config.APP_URL,
  };
  await ctx.queue.work<{ checkId: string }>(CHECK_QUEUE, { concurrency: 1, pollingIntervalSeconds: 1 }, (data) => runCheck(deps, data.checkId));
  await ctx.queue.work(SCHEDULE_QUEUE, {}, async () => {
    await queueDueChecks(ctx);
  });
  await ctx.queue.schedule(SCHEDULE_QUEUE, '*/10 * * * *');
}

/** Queues a check for every schedule that is due (unless one is already on its way) and sets its next run. */
export async function queueDueChecks(ctx: Pick<Kernel, 'database' | 'clock' | 'queue'>): Promise<number> {
  const now = ctx.clock.now();
  return ctx.database.db.transaction(async (tx) => {
    const due = await repo.takeDueSchedules(tx, now, SWEEP_BATCH);
    for (const schedule of due) {
      if (!(await repo.findActiveCheck(tx, schedule.demoId))) {
        await queueCheck(tx, ctx, {
          workspaceId: schedule.workspaceId,
          demoId: schedule.demoId,
          trigger: 'schedule',
          imageThreshold: DEFAULT_IMAGE_THRESHOLD,
          boxThresholdPx: DEFAULT_BOX_THRESHOLD_PX,
        });
      }
      await repo.advanceSchedule(tx, schedule.demoId, nextRunAfter(schedule.interval, now), now);
    }
    return due.length;
  });
}
