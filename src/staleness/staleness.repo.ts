// Queries of the stale-demo check: checks and their results, the captures kept for "replace", step baselines, schedules, and the demo owner's address.
import { and, count, desc, eq, inArray, lte, ne } from 'drizzle-orm';
import { members } from '../accounts/accounts.tables';
import type { Executor } from '../db/client';
import { demos } from '../demos/demos.tables';
import {
  type CheckInterval,
  demoCheckCaptures,
  demoChecks,
  demoCheckSchedules,
  type StepBaseline,
  stepBaselines,
  type StepResult,
} from './staleness.tables';

export type CheckRow = typeof demoChecks.$inferSelect;
export type CaptureRow = typeof demoCheckCaptures.$inferSelect;
export type ScheduleRow = typeof demoCheckSchedules.$inferSelect;

export async function insertCheck(db: Executor, row: typeof demoChecks.$inferInsert) {
  const [inserted] = await db.insert(demoChecks).values(row).returning();
  return inserted!;
}

/** The demo's check still queued or running, if any: a second request answers it instead of starting another. */
export async function findActiveCheck(db: Executor, demoId: string) {
  const [row] = await db
    .select()
    .from(demoChecks)
    .where(and(eq(demoChecks.demoId, demoId), inArray(demoChecks.status, ['queued', 'running'])))
    .orderBy(desc(demoChecks.createdAt))
    .limit(1);
  return row;
}

export async function findCheck(db: Executor, workspaceId: string, demoId: string, id: string) {
  const [row] = await db
    .select()
    .from(demoChecks)
    .where(and(eq(demoChecks.workspaceId, workspaceId), eq(demoChecks.demoId, demoId), eq(demoChecks.id, id)))
    .limit(1);
  return row;
}

export async function findCheckById(db: Executor, id: string) {
  const [row] = await db.select().from(demoChecks).where(eq(demoChecks.id, id)).limit(1);
  return row;
}

/** Newest first; ties (one millisecond) by id, which sorts by time too. */
export async function listChecks(db: Executor, workspaceId: string, demoId: string, range: { limit: number; offset: number }) {
  const where = and(eq(demoChecks.workspaceId, workspaceId), eq(demoChecks.demoId, demoId));
  const [rows, [total]] = await Promise.all([
    db.select().from(demoChecks).where(where).orderBy(desc(demoChecks.createdAt), desc(demoChecks.id)).limit(range.limit).offset(range.offset),
    db.select({ n: count() }).from(demoChecks).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** The check as its worker takes it: queued (or running again after a worker died); undefined once finished. */
export async function startCheck(db: Executor, id: string, now: Date) {
  const [row] = await db
    .update(demoChecks)
    .set({ status: 'running', startedAt: now })
    .where(and(eq(demoChecks.id, id), inArray(demoChecks.status, ['queued', 'running'])))
    .returning();
  return row;
}

export async function finishCheck(db: Executor, id: string, patch: Pick<CheckRow, 'results' | 'drift' | 'captureMode' | 'finishedAt'>) {
  await db
    .update(demoChecks)
    .set({ ...patch, status: 'succeeded' })
    .where(eq(demoChecks.id, id));
}

export async function failCheck(db: Executor, id: string, error: string, now: Date) {
  await db
    .update(demoChecks)
    .set({ status: 'failed', error, finishedAt: now })
    .where(and(eq(demoChecks.id, id), inArray(demoChecks.status, ['queued', 'running'])));
}

/** The latest finished scheduled check of the demo before `id`: whether a scheduled check's drift is news to its owner. */
export async function previousScheduled(db: Executor, demoId: string, id: string) {
  const [row] = await db
    .select({ results: demoChecks.results })
    .from(demoChecks)
    .where(and(eq(demoChecks.demoId, demoId), eq(demoChecks.status, 'succeeded'), eq(demoChecks.trigger, 'schedule'), ne(demoChecks.id, id)))
    .orderBy(desc(demoChecks.finishedAt))
    .limit(1);
  return row;
}

/** Only the newest check keeps captures: the demo's older ones go as this check's are written. */
export async function replaceCaptures(tx: Executor, demoId: string, rows: (typeof demoCheckCaptures.$inferInsert)[]) {
  await tx.delete(demoCheckCaptures).where(eq(demoCheckCaptures.demoId, demoId));
  if (rows.length > 0) await tx.insert(demoCheckCaptures).values(rows);
}

export async function findCapture(db: Executor, checkId: string, stepId: string) {
  const [row] = await db
    .select()
    .from(demoCheckCaptures)
    .where(and(eq(demoCheckCaptures.checkId, checkId), eq(demoCheckCaptures.stepId, stepId)))
    .limit(1);
  return row;
}

export async function deleteCapture(tx: Executor, checkId: string, stepId: string) {
  await tx.delete(demoCheckCaptures).where(and(eq(demoCheckCaptures.checkId, checkId), eq(demoCheckCaptures.stepId, stepId)));
}

/** The check row locked, so that marking one step replaced does not overwrite another's mark. */
export async function lockCheck(tx: Executor, id: string) {
  const [row] = await tx.select().from(demoChecks).where(eq(demoChecks.id, id)).for('update').limit(1);
  return row;
}

export async function setResults(tx: Executor, id: string, results: StepResult[]) {
  await tx.update(demoChecks).set({ results }).where(eq(demoChecks.id, id));
}

export async function findBaselines(db: Executor, stepIds: string[]) {
  if (stepIds.length === 0) return new Map<string, StepBaseline>();
  const rows = await db.select().from(stepBaselines).where(inArray(stepBaselines.stepId, stepIds));
  return new Map(rows.map((r) => [r.stepId, r.baseline]));
}

/** First baselines: a step that has one keeps it (a concurrent check's or a replace's is as good). */
export async function addBaselines(tx: Executor, rows: (typeof stepBaselines.$inferInsert)[]) {
  if (rows.length === 0) return;
  await tx.insert(stepBaselines).values(rows).onConflictDoNothing({ target: stepBaselines.stepId });
}

export async function setBaseline(tx: Executor, row: typeof stepBaselines.$inferInsert) {
  await tx
    .insert(stepBaselines)
    .values(row)
    .onConflictDoUpdate({ target: stepBaselines.stepId, set: { baseline: row.baseline, updatedAt: row.updatedAt } });
}

export async function findSchedule(db: Executor, demoId: string) {
  const [row] = await db.select().from(demoCheckSchedules).where(eq(demoCheckSchedules.demoId, demoId)).limit(1);
  return row;
}

export async function setSchedule(db: Executor, row: { demoId: string; workspaceId: string; interval: CheckInterval; nextRunAt: Date; now: Date }) {
  const [saved] = await db
    .insert(demoCheckSchedules)
    .values({ demoId: row.demoId, workspaceId: row.workspaceId, interval: row.interval, nextRunAt: row.nextRunAt, createdAt: row.now, updatedAt: row.now })
    .onConflictDoUpdate({ target: demoCheckSchedules.demoId, set: { interval: row.interval, nextRunAt: row.nextRunAt, updatedAt: row.now } })
    .returning();
  return saved!;
}

export async function deleteSchedule(db: Executor, demoId: string) {
  await db.delete(demoCheckSchedules).where(eq(demoCheckSchedules.demoId, demoId));
}

/** Schedules due, locked and skipped by other workers' sweeps (SKIP LOCKED), so a due demo is checked once. */
export async function takeDueSchedules(tx: Executor, now: Date, limit: number) {
  return tx
    .select()
    .from(demoCheckSchedules)
    .where(lte(demoCheckSchedules.nextRunAt, now))
    .orderBy(demoCheckSchedules.nextRunAt)
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function advanceSchedule(tx: Executor, demoId: string, nextRunAt: Date, now: Date) {
  await tx.update(demoCheckSchedules).set({ nextRunAt, lastRunAt: now }).where(eq(demoCheckSchedules.demoId, demoId));
}

/** The address of the member who made the demo, while they are a member with one; else undefined. */
export async function ownerEmail(db: Executor, demoId: string) {
  const [row] = await db
    .select({ email: members.email })
    .from(demos)
    .innerJoin(members, eq(members.id, demos.createdById))
    .where(eq(demos.id, demoId))
    .limit(1);
  return row?.email;
}
