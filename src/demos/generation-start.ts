// What starting a generation takes, shared by POST /v1/demos and POST /v1/demos/:id/generate: the budget,
// the admission under the workspace lock, the `generating` state and the job sent in the same transaction.
import { AppError } from '../core/errors';
import type { RateLimits } from '../core/rate-limit';
import type { Executor } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import * as repo from './demos.repo';
import type { WarningLog } from '../core/log';
import type { CaptureMode } from '../generation/generation.types';

/** The queue the generation jobs run on (demos.jobs.ts works it). */
export const GENERATE_QUEUE = 'demos.generate';

export interface GenerateJob {
  demoId: string;
  /** The title was made up from the address: replace it with the page's own. */
  replaceTitle: boolean;
  /** The capture the creator chose (POST /v1/demos `capture_mode`); absent: automatic. */
  captureMode?: CaptureMode;
  /** How many times a worker died running this generation (its lease lapsed) before this job was sent. */
  takeovers?: number;
}

/** Locks the workspace row for the rest of `tx` (the workspaces domain's `reader.lock`, injected). */
export type LockWorkspace = (tx: Executor, workspaceId: string) => Promise<unknown>;

/** What starting a generation needs. */
export interface GenerationStartDeps {
  queue: Pick<JobQueue, 'send'>;
  rateLimits: Pick<RateLimits, 'consume'>;
  generationPerMinute: number;
  generationConcurrency: number;
  log: WarningLog;
  lockWorkspace: LockWorkspace;
}

/** Spends one unit of the workspace's generation budget (per minute); 429 when it is spent. */
export async function consumeGenerationBudget(deps: GenerationStartDeps, workspaceId: string) {
  await deps.rateLimits.consume('generation', { points: deps.generationPerMinute, duration: 60 }, workspaceId);
}

/**
 * Refuses when too many generations of the workspace already run. The workspace row lock makes the
 * count-then-start check hold under concurrent requests.
 */
export async function admitGeneration(deps: GenerationStartDeps, tx: Executor, workspaceId: string) {
  await deps.lockWorkspace(tx, workspaceId);
  const running = await repo.countGenerating(tx, workspaceId);
  if (running >= deps.generationConcurrency) {
    throw new AppError(
      'rate_limited',
      `${running} demos of this workspace are being generated already: wait for one to finish`,
      { headers: { 'retry-after': '30' } },
    );
  }
}

/** The demo columns of a generation that is queued and not started. */
export const generatingState = (now: Date, keepEdited = false) => ({
  status: 'generating' as const,
  generationKeepEdited: keepEdited,
  generationStatus: 'queued' as const,
  generationError: null,
  generationErrorCode: null,
  generationStartedAt: null,
  generationFinishedAt: null,
  generationJobId: null,
  generationAttempt: null,
  updatedAt: now,
});

/**
 * Queues the generation in the transaction that starts it, so the job commits with the demo's
 * `generating` state or not at all. It runs in a savepoint: should the queue refuse, the change still
 * commits and the sweep sends the job later.
 */
export async function enqueueGeneration(deps: GenerationStartDeps, tx: Executor, demoId: string, job: GenerateJob) {
  try {
    const jobId = await tx.transaction((savepoint) => deps.queue.send(GENERATE_QUEUE, job, {}, savepoint));
    if (jobId) await repo.updateDemo(tx, demoId, { generationJobId: jobId });
  } catch (error) {
    deps.log.warn({ err: error, demo_id: demoId }, 'could not enqueue generation; the sweep will send it');
  }
}
