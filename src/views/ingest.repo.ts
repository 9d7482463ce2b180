/**
 * The ingestion's SQL: one statement per table for a whole batch of requests, whatever its size. Lists
 * travel as one JSON parameter (json_to_recordset), which keeps every statement far below PostgreSQL's
 * limit of 65,535 parameters and lets the same text run on pg and PGlite.
 */
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { shares } from '../shares/shares.tables';
import type { DailyDelta, StepDailyDelta, ViewState } from './view-progress';
import { demoDailyStats, demoStepDailyStats, viewSteps, views } from './views.tables';

type ViewRow = typeof views.$inferSelect;
type NewView = typeof views.$inferInsert;

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/** Stores the event ids; answers the `session|event` keys that were new (the others were seen before). */
export async function claimEventIds(db: Executor, ids: Array<{ sessionId: string; eventId: string }>, now: Date) {
  if (ids.length === 0) return new Set<string>();
  const payload = JSON.stringify(ids.map((i) => ({ session_id: i.sessionId, event_id: i.eventId })));
  const result = await db.execute(sql`
    insert into ingested_events (session_id, event_id, at)
    select e.session_id, e.event_id, ${now}
    from json_to_recordset(${payload}::json) as e(session_id text, event_id uuid)
    on conflict do nothing
    returning session_id, event_id`);
  return new Set(rowsOf(result).map((r) => `${r.session_id}|${r.event_id}`));
}

/**
 * Creates the views that do not exist yet and locks all of them, in session order. `created` tells the new
 * ones apart: a row inserted by this statement has no deleting transaction (xmax = 0), an updated one has.
 */
export async function upsertViews(db: Executor, rows: NewView[]): Promise<Array<ViewRow & { created: boolean }>> {
  if (rows.length === 0) return [];
  return db
    .insert(views)
    .values(rows)
    .onConflictDoUpdate({ target: views.sessionId, set: { sessionId: sql`excluded.session_id` } })
    .returning({ ...getTableColumns(views), created: sql<boolean>`(xmax = 0)` });
}

export async function addViewStepSeconds(
  db: Executor,
  rows: Array<{ viewId: string; stepNumber: number; seconds: number; firstReachedAt: Date }>,
) {
  if (rows.length === 0) return;
  await db
    .insert(viewSteps)
    .values(rows)
    .onConflictDoUpdate({
      target: [viewSteps.viewId, viewSteps.stepNumber],
      set: { seconds: sql`${viewSteps.seconds} + excluded.seconds` },
    });
}

export interface ViewUpdate extends ViewState {
  lastActivityAt: Date;
  viewerEmail: string | null;
  viewerName: string | null;
}

export async function updateViews(db: Executor, rows: ViewUpdate[]) {
  if (rows.length === 0) return;
  const payload = JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      steps_viewed: r.stepsViewed,
      current_step: r.currentStep,
      completed: r.completed,
      completed_at: r.completedAt?.toISOString() ?? null,
      duration_seconds: r.durationSeconds,
      last_activity_at: r.lastActivityAt.toISOString(),
      viewer_email: r.viewerEmail,
      viewer_name: r.viewerName,
    })),
  );
  await db.execute(sql`
    update views as v set
      steps_viewed = u.steps_viewed, current_step = u.current_step, completed = u.completed,
      completed_at = u.completed_at, duration_seconds = u.duration_seconds, last_activity_at = u.last_activity_at,
      viewer_email = u.viewer_email, viewer_name = u.viewer_name
    from json_to_recordset(${payload}::json) as u(
      id text, steps_viewed integer[], current_step integer, completed boolean, completed_at timestamptz,
      duration_seconds double precision, last_activity_at timestamptz, viewer_email text, viewer_name text)
    where v.id = u.id`);
}

/** Rows must come in key order (RollupDeltas.sorted) so that concurrent batches lock them in one order. */
export async function addDailyStats(db: Executor, rows: DailyDelta[]) {
  if (rows.length === 0) return;
  await db
    .insert(demoDailyStats)
    .values(rows)
    .onConflictDoUpdate({
      target: [demoDailyStats.demoId, demoDailyStats.day],
      set: {
        views: sql`${demoDailyStats.views} + excluded.views`,
        completions: sql`${demoDailyStats.completions} + excluded.completions`,
        durationSeconds: sql`${demoDailyStats.durationSeconds} + excluded.duration_seconds`,
      },
    });
}

export async function addStepDailyStats(db: Executor, rows: StepDailyDelta[]) {
  if (rows.length === 0) return;
  await db
    .insert(demoStepDailyStats)
    .values(rows)
    .onConflictDoUpdate({
      target: [demoStepDailyStats.demoId, demoStepDailyStats.day, demoStepDailyStats.stepNumber],
      set: {
        views: sql`${demoStepDailyStats.views} + excluded.views`,
        seconds: sql`${demoStepDailyStats.seconds} + excluded.seconds`,
        endedHere: sql`${demoStepDailyStats.endedHere} + excluded.ended_here`,
      },
    });
}

/** Counts new views on their links, one share at a time in id order (the lock order of every batch). */
export async function addShareViews(db: Executor, rows: Array<{ shareId: string; views: number; lastViewedAt: Date }>) {
  for (const row of [...rows].sort((a, b) => (a.shareId < b.shareId ? -1 : 1))) {
    await db
      .update(shares)
      .set({
        viewCount: sql`${shares.viewCount} + ${row.views}`,
        lastViewedAt: sql`greatest(${shares.lastViewedAt}, ${row.lastViewedAt.toISOString()}::timestamptz)`,
      })
      .where(eq(shares.id, row.shareId));
  }
}
