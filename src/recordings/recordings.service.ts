// A recording is the browser recorder's upload of steps, not a video: it becomes a demo (or steps of one) only when completed, and is swept after a day.
import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database } from '../db/client';
import type { StepImportsService } from '../demos/step-imports.service';
import { completeRecording } from './complete-recording';
import { putRecordedStep } from './put-recorded-step';
import type { SnapshotCleaner, StepLimits } from './recorded-step';
import { type RecordingView, usable, viewOf } from './recording-access';
import * as repo from './recordings.repo';
import type { CreateRecordingBody } from './recordings.schemas';

/** How long an upload may take from creation to completion; the sweep deletes it after. */
export const RECORDING_TTL_MS = 24 * 60 * 60 * 1000;

export interface RecordingsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  /** `cleanSnapshot` in the document workers: parsing a snapshot never holds the event loop. */
  cleanSnapshot: SnapshotCleaner;
  limits: StepLimits;
  /** The demos module's import path, read when called (demos is built first, but need not be). */
  imports: () => StepImportsService;
}

/**
 * Resumable uploads of recorded steps: create, store each step (put-recorded-step.ts), complete into a demo
 * (complete-recording.ts), discard, and the sweep of expired ones.
 *
 * @example
 * ```ts
 * const recordings = createRecordingsService({ ...kernel, cleanSnapshot, limits, imports: () => demos.imports });
 * const { row } = await recordings.create(auth, { mode: 'new', step_count: 1, title: 'Sign-up' });
 * await recordings.putStep(auth, row.id, 1, step, { sha256, size });
 * const done = await recordings.complete(auth, row.id); // done.row.demoId: the new demo
 * ```
 */
export function createRecordingsService(deps: RecordingsDeps) {
  const { db } = deps.database;
  const { clock } = deps;

  /** POST /v1/recordings: an empty recording, its target (an existing demo or step) checked now. */
  async function create(auth: AuthContext, body: CreateRecordingBody): Promise<RecordingView> {
    if (body.demo_id) await deps.imports().checkTarget(auth, body.demo_id, body.step_id);
    const now = clock.now();
    const row = await repo.insertRecording(db, {
      id: newId('recording'),
      workspaceId: auth.workspaceId,
      memberId: auth.memberId,
      mode: body.mode,
      stepCount: body.step_count,
      title: body.title ?? null,
      demoId: body.demo_id ?? null,
      stepId: body.step_id ?? null,
      expiresAt: new Date(now.getTime() + RECORDING_TTL_MS),
      createdAt: now,
    });
    return { row, received: [] };
  }

  async function get(auth: AuthContext, id: string): Promise<RecordingView> {
    return viewOf(db, usable(clock, await repo.findRecording(db, auth.workspaceId, auth.memberId, id)));
  }

  async function discard(auth: AuthContext, id: string) {
    const row = await repo.findRecording(db, auth.workspaceId, auth.memberId, id);
    if (!row) throw notFound('Recording');
    await repo.deleteRecording(db, row.id);
  }

  /** Deletes the recordings past their expiry, completed or not, with their stored steps. */
  async function sweepExpired() {
    return repo.deleteExpired(db, clock.now());
  }

  return {
    create,
    get,
    putStep: putRecordedStep.bind(null, deps),
    complete: completeRecording.bind(null, deps),
    discard,
    sweepExpired,
  };
}

export type RecordingsService = ReturnType<typeof createRecordingsService>;
