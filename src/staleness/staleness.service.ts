// The stale-demo check's rules: start a check (one at a time per demo), read checks, set the schedule, replace a step with a check's new capture.
import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { AppError, conflict, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { LimitOffset } from '../core/pagination';
import type { Database, Executor } from '../db/client';
import type { DemoReader } from '../demos/demos.reader';
import type { StepImportsService } from '../demos/step-imports.service';
import type { JobQueue } from '../jobs/queue';
import * as repo from './staleness.repo';
import { DEFAULT_BOX_THRESHOLD_PX, DEFAULT_IMAGE_THRESHOLD } from './staleness.schemas';
import type { CheckInterval, CheckTrigger } from './staleness.tables';

export const CHECK_QUEUE = 'staleness.check';

export interface StalenessDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  queue: Pick<JobQueue, 'send'>;
  demos: Pick<DemoReader, 'find'>;
  imports: Pick<StepImportsService, 'recapture' | 'committed'>;
}

const INTERVAL_MS: Record<CheckInterval, number> = { daily: 24 * 3600_000, weekly: 7 * 24 * 3600_000 };

/** When a schedule set or run at `from` runs next. */
export const nextRunAfter = (interval: CheckInterval, from: Date) => new Date(from.getTime() + INTERVAL_MS[interval]);

/** Writes a queued check and its job in `tx`: both exist or neither. */
export async function queueCheck(
  tx: Executor,
  deps: Pick<StalenessDeps, 'clock' | 'queue'>,
  input: { workspaceId: string; demoId: string; trigger: CheckTrigger; imageThreshold: number; boxThresholdPx: number },
) {
  const row = await repo.insertCheck(tx, { id: newId('demoCheck'), status: 'queued', createdAt: deps.clock.now(), ...input });
  await deps.queue.send(CHECK_QUEUE, { checkId: row.id }, {}, tx);
  return row;
}

/**
 * @example
 * const staleness = createStalenessService({ database, clock, queue, demos: reader, imports });
 * const { check, created } = await staleness.start(auth, demoId, {}); // 202 either way: a running check is answered as is
 */
export function createStalenessService(deps: StalenessDeps) {
  const { db } = deps.database;

  async function demoOf(auth: Pick<AuthContext, 'workspaceId'>, demoId: string) {
    const found = await deps.demos.find(auth.workspaceId, demoId);
    if (!found) throw notFound('Demo');
    return found.demo;
  }

  /** Queues a check of the demo's draft; while one is queued or running, answers that one instead. */
  async function start(
    auth: Pick<AuthContext, 'workspaceId'>,
    demoId: string,
    input: { imageThreshold?: number; boxThresholdPx?: number },
    trigger: CheckTrigger = 'api',
  ) {
    await demoOf(auth, demoId);
    const active = await repo.findActiveCheck(db, demoId);
    if (active) return { check: active, created: false };
    const check = await db.transaction((tx) =>
      queueCheck(tx, deps, {
        workspaceId: auth.workspaceId,
        demoId,
        trigger,
        imageThreshold: input.imageThreshold ?? DEFAULT_IMAGE_THRESHOLD,
        boxThresholdPx: input.boxThresholdPx ?? DEFAULT_BOX_THRESHOLD_PX,
      }),
    );
    return { check, created: true };
  }

  async function get(auth: Pick<AuthContext, 'workspaceId'>, demoId: string, checkId: string) {
    const check = await repo.findCheck(db, auth.workspaceId, demoId, checkId);
    if (!check) throw notFound('Check');
    return check;
  }

  return {
    start,
    get,
    async list(auth: Pick<AuthContext, 'workspaceId'>, demoId: string, range: LimitOffset) {
      await demoOf(auth, demoId);
      return repo.listChecks(db, auth.workspaceId, demoId, range);
    },

    async schedule(auth: Pick<AuthContext, 'workspaceId'>, demoId: string) {
      await demoOf(auth, demoId);
      return repo.findSchedule(db, demoId);
    },

    /** A new interval starts counting now; null removes the schedule. */
    async setSchedule(auth: Pick<AuthContext, 'workspaceId'>, demoId: string, interval: CheckInterval | null) {
      await demoOf(auth, demoId);
      if (interval === null) {
        await repo.deleteSchedule(db, demoId);
        return undefined;
      }
      const now = deps.clock.now();
      const current = await repo.findSchedule(db, demoId);
      if (current?.interval === interval) return current;
      return repo.setSchedule(db, { demoId, workspaceId: auth.workspaceId, interval, nextRunAt: nextRunAfter(interval, now), now });
    },

    /** The new screenshot a check kept for a step it may replace; 404 when it kept none (or only a snapshot). */
    async captureImage(auth: Pick<AuthContext, 'workspaceId'>, demoId: string, checkId: string, stepId: string) {
      await get(auth, demoId, checkId);
      const capture = await repo.findCapture(db, checkId, stepId);
      if (!capture?.image) throw notFound('New capture');
      return capture.image;
    },

    /**
     * The step takes the check's new capture (image and/or snapshot, hotspot boxes); its text, patches,
     * labels and actions stay. Its baseline becomes the capture's, and the check's result says replaced.
     */
    async replace(auth: Pick<AuthContext, 'workspaceId'>, demoId: string, checkId: string, stepId: string) {
      const check = await get(auth, demoId, checkId);
      const result = check.results.find((r) => r.stepId === stepId);
      if (!result) throw notFound('Step');
      if (result.replacedAt) throw conflict('This step was already replaced with this check’s capture');
      const capture = await repo.findCapture(db, checkId, stepId);
      if (!capture) {
        throw new AppError('conflict', result.replaceable ? 'A newer check of this demo replaced this one’s captures: replace from the newest check' : 'This check kept no new capture of this step (it was ok, or its page could not be captured)');
      }
      const now = deps.clock.now();
      await db.transaction(async (tx) => {
        await deps.imports.recapture(tx, auth, demoId, stepId, { image: capture.image, html: capture.html, boxes: capture.boxes });
        if (capture.baseline) await repo.setBaseline(tx, { stepId, demoId, baseline: capture.baseline, updatedAt: now });
        const locked = await repo.lockCheck(tx, checkId);
        await repo.setResults(
          tx,
          checkId,
          (locked?.results ?? check.results).map((r) => (r.stepId === stepId ? { ...r, replacedAt: now.toISOString() } : r)),
        );
        await repo.deleteCapture(tx, checkId, stepId);
      });
      await deps.imports.committed(demoId);
      return { check_id: checkId, step_id: stepId, replaced_at: now.toISOString() };
    },
  };
}

export type StalenessService = ReturnType<typeof createStalenessService>;
