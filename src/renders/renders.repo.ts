// Queries on demo_renders: the one place that reads or writes it. Lists and status reads never load the file.
import { and, count, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { demoRenders, type RenderStatus } from './renders.tables';

export type NewRenderRow = typeof demoRenders.$inferInsert;

const ACTIVE: RenderStatus[] = ['queued', 'running'];

const meta = {
  id: demoRenders.id,
  workspaceId: demoRenders.workspaceId,
  demoId: demoRenders.demoId,
  version: demoRenders.version,
  format: demoRenders.format,
  width: demoRenders.width,
  height: demoRenders.height,
  paceMs: demoRenders.paceMs,
  fps: demoRenders.fps,
  stepCount: demoRenders.stepCount,
  status: demoRenders.status,
  progress: demoRenders.progress,
  error: demoRenders.error,
  outputBytes: demoRenders.outputBytes,
  durationMs: demoRenders.durationMs,
  createdBy: demoRenders.createdBy,
  createdAt: demoRenders.createdAt,
  startedAt: demoRenders.startedAt,
  finishedAt: demoRenders.finishedAt,
};
export type RenderRow = { [K in keyof typeof meta]: (typeof demoRenders.$inferSelect)[K] };

const own = (workspaceId: string, demoId: string, id: string) =>
  and(eq(demoRenders.workspaceId, workspaceId), eq(demoRenders.demoId, demoId), eq(demoRenders.id, id));

export async function insertRender(db: Executor, row: NewRenderRow): Promise<RenderRow> {
  const [inserted] = await db.insert(demoRenders).values(row).returning(meta);
  return inserted!;
}

export async function findRender(db: Executor, workspaceId: string, demoId: string, id: string): Promise<RenderRow | undefined> {
  const [row] = await db.select(meta).from(demoRenders).where(own(workspaceId, demoId, id));
  return row;
}

/** A render by id alone: the job's read (it carries no workspace). */
export async function findRenderById(db: Executor, id: string): Promise<RenderRow | undefined> {
  const [row] = await db.select(meta).from(demoRenders).where(eq(demoRenders.id, id));
  return row;
}

export async function listRenders(db: Executor, workspaceId: string, demoId: string, range: { limit: number; offset: number }) {
  const where = and(eq(demoRenders.workspaceId, workspaceId), eq(demoRenders.demoId, demoId));
  const rows = await db.select(meta).from(demoRenders).where(where).orderBy(desc(demoRenders.createdAt), desc(demoRenders.id)).limit(range.limit).offset(range.offset);
  const [total] = await db.select({ n: count() }).from(demoRenders).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** Renders of the workspace still queued or running. */
export async function countActive(db: Executor, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(demoRenders)
    .where(and(eq(demoRenders.workspaceId, workspaceId), inArray(demoRenders.status, ACTIVE)));
  return row?.n ?? 0;
}

/** The finished file, or undefined while there is none. */
export async function readOutput(db: Executor, workspaceId: string, demoId: string, id: string) {
  const [row] = await db
    .select({ output: demoRenders.output, format: demoRenders.format, status: demoRenders.status, createdAt: demoRenders.createdAt })
    .from(demoRenders)
    .where(own(workspaceId, demoId, id));
  return row;
}

/** Marks a queued render running (a retried job finds it running and starts over); undefined once cancelled. */
export async function claimRender(db: Executor, id: string, now: Date): Promise<RenderRow | undefined> {
  const [row] = await db
    .update(demoRenders)
    .set({ status: 'running', startedAt: now, progress: 0, error: null })
    .where(and(eq(demoRenders.id, id), inArray(demoRenders.status, ACTIVE)))
    .returning(meta);
  return row;
}

/** Writes the progress of a running render; false when it is no longer running (cancelled meanwhile). */
export async function writeProgress(db: Executor, id: string, progress: number): Promise<boolean> {
  const rows = await db
    .update(demoRenders)
    .set({ progress })
    .where(and(eq(demoRenders.id, id), eq(demoRenders.status, 'running')))
    .returning({ id: demoRenders.id });
  return rows.length > 0;
}

export async function succeedRender(db: Executor, id: string, done: { output: Buffer; durationMs: number; now: Date }): Promise<boolean> {
  const rows = await db
    .update(demoRenders)
    .set({ status: 'succeeded', progress: 1, output: done.output, outputBytes: done.output.length, durationMs: done.durationMs, finishedAt: done.now })
    .where(and(eq(demoRenders.id, id), eq(demoRenders.status, 'running')))
    .returning({ id: demoRenders.id });
  return rows.length > 0;
}

export async function failRender(db: Executor, id: string, error: string, now: Date): Promise<void> {
  await db
    .update(demoRenders)
    .set({ status: 'failed', error: error.slice(0, 500), finishedAt: now })
    .where(and(eq(demoRenders.id, id), inArray(demoRenders.status, ACTIVE)));
}

/** Cancels a queued or running render; undefined when it was neither. */
export async function cancelRender(db: Executor, workspaceId: string, demoId: string, id: string, now: Date) {
  const [row] = await db
    .update(demoRenders)
    .set({ status: 'cancelled', finishedAt: now })
    .where(and(own(workspaceId, demoId, id), inArray(demoRenders.status, ACTIVE)))
    .returning({ id: demoRenders.id });
  return row;
}

/** Deletes a finished render (succeeded, failed or cancelled) and its file. */
export async function deleteFinished(db: Executor, workspaceId: string, demoId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(demoRenders)
    .where(and(own(workspaceId, demoId, id), notInArray(demoRenders.status, ACTIVE)))
    .returning({ id: demoRenders.id });
  return rows.length > 0;
}

/** Deletes the demo's finished renders beyond the `keep` newest: what bounds the files a demo holds. */
export async function pruneFinished(db: Executor, demoId: string, keep: number): Promise<void> {
  const newest = db
    .select({ id: demoRenders.id })
    .from(demoRenders)
    .where(eq(demoRenders.demoId, demoId))
    .orderBy(desc(demoRenders.createdAt), desc(demoRenders.id))
    .limit(keep);
  await db
    .delete(demoRenders)
    .where(and(eq(demoRenders.demoId, demoId), notInArray(demoRenders.status, ACTIVE), sql`${demoRenders.id} not in (${newest})`));
}
