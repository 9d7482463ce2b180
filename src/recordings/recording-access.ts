// The checks every use of a stored recording goes through, and what a recording answers with.
import type { Clock } from '../core/clock';
import { AppError, conflict, notFound } from '../core/errors';
import type { Executor } from '../db/client';
import * as repo from './recordings.repo';
import type { RecordingRow } from './recordings.repo';

/** A recording with the numbers of the steps it has stored. */
export interface RecordingView {
  row: RecordingRow;
  received: number[];
}

/** The recording with the numbers of its stored steps (none once completed: they are deleted then). */
export async function viewOf(tx: Executor, row: RecordingRow): Promise<RecordingView> {
  return { row, received: row.status === 'completed' ? [] : await repo.receivedNumbers(tx, row.id) };
}

/** 404 for a recording that is not this member's, 410 once it expired (until the sweep deletes it). */
export function usable(clock: Clock, row: RecordingRow | undefined): RecordingRow {
  if (!row) throw notFound('Recording');
  if (row.expiresAt.getTime() <= clock.now().getTime()) {
    throw new AppError('gone', `This recording expired at ${row.expiresAt.toISOString()}: start a new one`);
  }
  return row;
}

/** 409 once the recording is completed: its steps cannot change any more. */
export function stillUploading(row: RecordingRow) {
  if (row.status === 'completed') throw conflict('This recording is completed: its steps cannot change any more');
}
