import type { AuthContext } from '../auth/permissions';
import { AppError } from '../core/errors';
import type { Executor } from '../db/client';
import type { ImportedStep } from '../demos/imported-step';
import { defaultTitle, toImportedStep } from './recorded-step';
import { type RecordingView, usable } from './recording-access';
import * as repo from './recordings.repo';
import type { RecordingRow } from './recordings.repo';
import type { RecordingsDeps } from './recordings.service';

async function storedStep(tx: Executor, row: RecordingRow, number: number): Promise<ImportedStep> {
  const fields = await repo.chunkFields(tx, row.id, number);
  if (!fields) throw new Error(`step ${number} of ${row.id} vanished under its lock`);
  const { blobs } = fields;
  if (blobs) {
    // The bytes stay in the database: the assets are made from them there (or read once for a blob store).
    const { screenshot, snapshot } = repo.chunkBlobs(row.id, number);
    return toImportedStep(
      fields,
      blobs.screenshot && { ...blobs.screenshot, select: screenshot },
      blobs.snapshot && { ...blobs.snapshot, select: snapshot },
    );
  }
  // Stored before `blobs` was kept: the bytes are read here.
  const chunk = await repo.findChunk(tx, row.id, number);
  if (!chunk) throw new Error(`step ${number} of ${row.id} vanished under its lock`);
  return toImportedStep(chunk.fields, chunk.screenshot, chunk.snapshot);
}

/** The stored steps, in order, read one at a time: a long recording is never in memory at once. */
async function* storedSteps(tx: Executor, row: RecordingRow): AsyncGenerator<ImportedStep> {
  for (let number = 1; number <= row.stepCount; number++) yield storedStep(tx, row, number);
}

/** Writes the steps into their demo, as the mode says, in `tx`; returns the demo's id. */
async function build(deps: RecordingsDeps, tx: Executor, auth: AuthContext, row: RecordingRow): Promise<string> {
  const imports = deps.imports();
  if (row.mode === 'replace_step') {
    await imports.replace(tx, auth, row.demoId!, row.stepId!, await storedStep(tx, row, 1));
    return row.demoId!;
  }
  let demoId = row.demoId;
  if (row.mode === 'new') {
    const first = (await repo.chunkFields(tx, row.id, 1))!;
    const demo = await imports.createDraft(tx, auth, { title: row.title ?? defaultTitle(first.pageUrl), sourceUrl: first.pageUrl });
    demoId = demo.id;
  }
  await imports.append(tx, auth, demoId!, storedSteps(tx, row));
  return demoId!;
}

/**
 * POST /v1/recordings/:id/complete: builds the demo from the stored steps in one transaction with marking
 * the recording completed and deleting its steps: all of it happens or none. Completing again answers the
 * same recording.
 */
export async function completeRecording(deps: RecordingsDeps, auth: AuthContext, id: string): Promise<RecordingView> {
  const { clock } = deps;
  const result = await deps.database.db.transaction(async (tx) => {
    const row = usable(clock, await repo.lockRecording(tx, auth.workspaceId, auth.memberId, id, 'update'));
    if (row.status === 'completed') return { row, built: false };
    const received = new Set(await repo.receivedNumbers(tx, row.id));
    const missing = Array.from({ length: row.stepCount }, (_, i) => i + 1).filter((n) => !received.has(n));
    if (missing.length > 0) {
      throw new AppError(
        'recording_incomplete',
        `Not uploaded yet: step ${missing.join(', ')} of ${row.stepCount}. Upload the missing steps, then complete again`,
        { details: missing.map((n) => ({ field: `steps.${n}`, message: 'not uploaded yet' })) },
      );
    }
    const demoId = await build(deps, tx, auth, row);
    await repo.deleteChunks(tx, row.id);
    return { row: await repo.markCompleted(tx, row.id, demoId, clock.now()), built: true };
  });
  if (result.built) await deps.imports().committed(result.row.demoId!);
  return { row: result.row, received: [] };
}
