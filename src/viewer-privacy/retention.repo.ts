/**
 * Deleting the views, and the analytics roll-ups, of the days past VIEW_RETENTION. Views are credited to the
 * UTC day they started (view-progress.ts), so the views before a day's start and the roll-up rows of the days
 * before it are the same set of data: what remains still adds up.
 */
import { getTableName, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { demos } from '../demos/demos.tables';
import {
  demoDailySegments,
  demoDailySketches,
  demoDailyStats,
  demoDailyViewers,
  demoStepDailyStats,
  demoChapterDailyStats,
  demoChapterStepDailyStats,
  demoElementDailyStats,
  demoFormDailyStats,
  demoPathDailyStats,
  views,
  workspaceDailySketches,
} from '../viewing/viewing.tables';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Every table keyed by day that the views feed (viewing/viewing.tables.ts). */
const ROLLUP_TABLES = [
  demoDailyStats,
  demoStepDailyStats,
  demoDailyViewers,
  demoDailySegments,
  demoDailySketches,
  workspaceDailySketches,
  demoChapterDailyStats,
  demoChapterStepDailyStats,
  demoPathDailyStats,
  demoElementDailyStats,
  demoFormDailyStats,
] as const;

/** The demos with a view that started before `before`: one probe of the (demo_id, started_at) index per demo. */
export async function demosWithViewsBefore(db: Executor, before: Date): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      select ${demos.id} from ${demos}
      where exists (select 1 from ${views} where ${views.demoId} = ${demos.id} and ${views.startedAt} < ${before.toISOString()})`),
  );
  return rows.map((r) => r.id);
}

/**
 * Deletes up to `limit` of the demo's views that started before `before` (their step times go with them);
 * returns how many went. In batches, so that no statement holds the table, or PGlite, for long.
 */
export async function deleteViewsBefore(db: Executor, demoId: string, before: Date, limit: number): Promise<number> {
  const rows = rowsOf<{ n: number }>(
    await db.execute(sql`
      with gone as (
        delete from ${views} where ${views.id} in (
          select ${views.id} from ${views} where ${views.demoId} = ${demoId} and ${views.startedAt} < ${before.toISOString()} limit ${limit})
        returning 1)
      select count(*)::int as n from gone`),
  );
  return rows[0]?.n ?? 0;
}

/** Deletes the roll-up rows of the days before `day` (YYYY-MM-DD); returns the rows that went per table. */
export async function deleteRollupsBefore(db: Executor, day: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ROLLUP_TABLES) {
    const rows = rowsOf<{ n: number }>(
      await db.execute(sql`
        with gone as (delete from ${table} where ${table.day} < ${day}::date returning 1)
        select count(*)::int as n from gone`),
    );
    counts[getTableName(table)] = rows[0]?.n ?? 0;
  }
  return counts;
}
