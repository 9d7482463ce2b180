import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { recordingChunks, recordingUploads } from './recordings.tables';

export type RecordingRow = typeof recordingUploads.$inferSelect;
export type ChunkRow = typeof recordingChunks.$inferSelect;

const owned = (workspaceId: string, memberId: string, id: string) =>
  and(eq(recordingUploads.id, id), eq(recordingUploads.workspaceId, workspaceId), eq(recordingUploads.memberId, memberId));

export async function insertRecording(db: Executor, row: typeof recordingUploads.$inferInsert) {
  const [created] = await db.insert(recordingUploads).values(row).returning();
  return created!;
}

/** A recording of this member of this workspace; undefined for anyone else's. */
export async function findRecording(db: Executor, workspaceId: string, memberId: string, id: string) {
  const [row] = await db.select().from(recordingUploads).where(owned(workspaceId, memberId, id)).limit(1);
  return row;
}

/**
 * The same, locked for the rest of the transaction: `update` for completing (one at a time, and no step
 * lands meanwhile), `share` for storing a step (several at once, but not while it completes).
 */
export async function lockRecording(db: Executor, workspaceId: string, memberId: string, id: string, mode: 'update' | 'share') {
  const [row] = await db.select().from(recordingUploads).where(owned(workspaceId, memberId, id)).for(mode);
  return row;
}

export async function markCompleted(db: Executor, id: string, demoId: string, at: Date) {
  const [row] = await db
    .update(recordingUploads)
    .set({ status: 'completed', demoId, completedAt: at })
    .where(eq(recordingUploads.id, id))
    .returning();
  return row!;
}

export async function deleteRecording(db: Executor, id: string) {
  await db.delete(recordingUploads).where(eq(recordingUploads.id, id));
}

/** Deletes recordings (their chunks by cascade) that expired before `now`; returns how many. */
export async function deleteExpired(db: Executor, now: Date) {
  const gone = await db.delete(recordingUploads).where(lt(recordingUploads.expiresAt, now)).returning({ id: recordingUploads.id });
  return gone.length;
}

// ---- chunks --------------------------------------------------------------------------------------

/** Numbers of the steps stored, ascending. */
export async function receivedNumbers(db: Executor, recordingId: string) {
  const rows = await db
    .select({ number: recordingChunks.number })
    .from(recordingChunks)
    .where(eq(recordingChunks.recordingId, recordingId))
    .orderBy(asc(recordingChunks.number));
  return rows.map((r) => r.number);
}

export async function findChunkDigest(db: Executor, recordingId: string, number: number) {
  const [row] = await db
    .select({ digest: recordingChunks.digest })
    .from(recordingChunks)
    .where(and(eq(recordingChunks.recordingId, recordingId), eq(recordingChunks.number, number)))
    .limit(1);
  return row?.digest;
}

/** Stores a step, replacing one of the same number. */
export async function upsertChunk(db: Executor, row: typeof recordingChunks.$inferInsert) {
  const { recordingId: _, number: __, ...rest } = row;
  await db
    .insert(recordingChunks)
    .values(row)
    .onConflictDoUpdate({ target: [recordingChunks.recordingId, recordingChunks.number], set: rest });
}

/** The fields of one stored step (without its blobs). */
export async function chunkFields(db: Executor, recordingId: string, number: number) {
  const [row] = await db
    .select({ fields: recordingChunks.fields })
    .from(recordingChunks)
    .where(and(eq(recordingChunks.recordingId, recordingId), eq(recordingChunks.number, number)))
    .limit(1);
  return row?.fields;
}

/** Scalar subqueries that yield a stored step's screenshot and snapshot: bytes copied inside the database. */
export function chunkBlobs(recordingId: string, number: number) {
  const of = (column: typeof recordingChunks.screenshot | typeof recordingChunks.snapshot) =>
    sql`(select ${column} from ${recordingChunks} where ${recordingChunks.recordingId} = ${recordingId} and ${recordingChunks.number} = ${number})`;
  return { screenshot: of(recordingChunks.screenshot), snapshot: of(recordingChunks.snapshot) };
}

/** One stored step with its blobs: read one at a time, so a long recording is never in memory at once. */
export async function findChunk(db: Executor, recordingId: string, number: number) {
  const [row] = await db
    .select()
    .from(recordingChunks)
    .where(and(eq(recordingChunks.recordingId, recordingId), eq(recordingChunks.number, number)))
    .limit(1);
  return row;
}

export async function deleteChunks(db: Executor, recordingId: string) {
  await db.delete(recordingChunks).where(eq(recordingChunks.recordingId, recordingId));
}
