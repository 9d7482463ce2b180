import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { AppError, conflict, invalid, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import type { ImportedStep, StepImportsService } from '../demos/step-imports.service';
import { cleanStep, defaultTitle, type SnapshotCleaner, type StepLimits, toImportedStep } from './recorded-step';
import * as repo from './recordings.repo';
import type { RecordingRow } from './recordings.repo';
import type { CreateRecordingBody, RecordedStepBody } from './recordings.schemas';

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

/** A recording with the numbers of the steps it has stored. */
export interface RecordingView {
  row: RecordingRow;
  received: number[];
}

/** The body of one step upload as the route saw it: its SHA-256 (hex) and size. */
export interface BodyDigest {
  sha256: string;
  size: number;
}

export function createRecordingsService(deps: RecordingsDeps) {
  const { db } = deps.database;
  const { clock } = deps;

  async function view(tx: Executor, row: RecordingRow): Promise<RecordingView> {
    return { row, received: row.status === 'completed' ? [] : await repo.receivedNumbers(tx, row.id) };
  }

  /** 404 for a recording that is not this member's, 410 once it expired (until the sweep deletes it). */
  function usable(row: RecordingRow | undefined): RecordingRow {
    if (!row) throw notFound('Recording');
    if (row.expiresAt.getTime() <= clock.now().getTime()) {
      throw new AppError('gone', `This recording expired at ${row.expiresAt.toISOString()}: start a new one`);
    }
    return row;
  }

  function stillUploading(row: RecordingRow) {
    if (row.status === 'completed') throw conflict('This recording is completed: its steps cannot change any more');
  }

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
    return view(db, usable(await repo.findRecording(db, auth.workspaceId, auth.memberId, id)));
  }

  /**
   * Stores step `number`. The same body again (same digest) changes nothing; another body replaces the
   * step. The step is checked and cleaned before the recording is locked, so no lock waits on that work.
   */
  async function putStep(auth: AuthContext, id: string, number: number, body: RecordedStepBody, digest: BodyDigest) {
    const row = usable(await repo.findRecording(db, auth.workspaceId, auth.memberId, id));
    stillUploading(row);
    if (number > row.stepCount) {
      throw invalid(`This recording has ${row.stepCount} steps: number ${number} is out of range`, [
        { field: 'number', message: `must be between 1 and ${row.stepCount}` },
      ]);
    }
    if ((await repo.findChunkDigest(db, row.id, number)) === digest.sha256) return view(db, row);
    const clean = await cleanStep(body, deps.limits, deps.cleanSnapshot);
    return db.transaction(async (tx) => {
      const locked = usable(await repo.lockRecording(tx, auth.workspaceId, auth.memberId, id, 'share'));
      stillUploading(locked);
      await repo.upsertChunk(tx, {
        recordingId: row.id,
        number,
        digest: digest.sha256,
        bodySize: digest.size,
        ...clean,
        createdAt: clock.now(),
      });
      return view(tx, locked);
    });
  }

  async function storedStep(tx: Executor, row: RecordingRow, number: number): Promise<ImportedStep> {
    const chunk = await repo.findChunk(tx, row.id, number);
    if (!chunk) throw new Error(`step ${number} of ${row.id} vanished under its lock`);
    return toImportedStep(chunk.fields, chunk.screenshot, chunk.snapshot);
  }

  /** The stored steps, in order, read one at a time: a long recording is never in memory at once. */
  async function* storedSteps(tx: Executor, row: RecordingRow): AsyncGenerator<ImportedStep> {
    for (let number = 1; number <= row.stepCount; number++) yield storedStep(tx, row, number);
  }

  /** Writes the steps into their demo, as the mode says, in `tx`; returns the demo's id. */
  async function build(tx: Executor, auth: AuthContext, row: RecordingRow): Promise<string> {
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
   * Builds the demo from the stored steps in one transaction with marking the recording completed and
   * deleting its steps: all of it happens or none. Completing again answers the same recording.
   */
  async function complete(auth: AuthContext, id: string): Promise<RecordingView> {
    const result = await db.transaction(async (tx) => {
      const row = usable(await repo.lockRecording(tx, auth.workspaceId, auth.memberId, id, 'update'));
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
      const demoId = await build(tx, auth, row);
      await repo.deleteChunks(tx, row.id);
      return { row: await repo.markCompleted(tx, row.id, demoId, clock.now()), built: true };
    });
    if (result.built) await deps.imports().committed(result.row.demoId!);
    return { row: result.row, received: [] };
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

  return { create, get, putStep, complete, discard, sweepExpired };
}

export type RecordingsService = ReturnType<typeof createRecordingsService>;
