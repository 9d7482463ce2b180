import type { AuthContext } from '../auth/permissions';
import { invalid } from '../core/errors';
import { cleanStep } from './recorded-step';
import { type RecordingView, stillUploading, usable, viewOf } from './recording-access';
import * as repo from './recordings.repo';
import type { RecordedStepBody } from './recordings.schemas';
import type { RecordingsDeps } from './recordings.service';

/** The body of one step upload as the route saw it: its SHA-256 (hex) and size. */
export interface BodyDigest {
  sha256: string;
  size: number;
}

/**
 * PUT /v1/recordings/:id/steps/:number: stores step `number`. The same body again (same digest) changes
 * nothing; another body replaces the step. The step is checked and cleaned before the recording is locked,
 * so no lock waits on that work.
 */
export async function putRecordedStep(
  deps: RecordingsDeps,
  auth: AuthContext,
  id: string,
  number: number,
  body: RecordedStepBody,
  digest: BodyDigest,
): Promise<RecordingView> {
  const { clock } = deps;
  const { db } = deps.database;
  const row = usable(clock, await repo.findRecording(db, auth.workspaceId, auth.memberId, id));
  stillUploading(row);
  if (number > row.stepCount) {
    throw invalid(`This recording has ${row.stepCount} steps: number ${number} is out of range`, [
      { field: 'number', message: `must be between 1 and ${row.stepCount}` },
    ]);
  }
  if ((await repo.findChunkDigest(db, row.id, number)) === digest.sha256) return viewOf(db, row);
  const clean = await cleanStep(body, deps.limits, deps.cleanSnapshot);
  return db.transaction(async (tx) => {
    const locked = usable(clock, await repo.lockRecording(tx, auth.workspaceId, auth.memberId, id, 'share'));
    stillUploading(locked);
    await repo.upsertChunk(tx, {
      recordingId: row.id,
      number,
      digest: digest.sha256,
      bodySize: digest.size,
      ...clean,
      createdAt: clock.now(),
    });
    return viewOf(tx, locked);
  });
}
