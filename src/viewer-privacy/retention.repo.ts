/**
 * Deleting the views, and the analytics roll-ups, of the days past VIEW_RETENTION. Views are credited to the
 * UTC day they started (view-progress.ts), so the views before a day's start and the roll-up rows of the days
 * before it are the same set of data: what remains still adds up.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Every table keyed by day that the views feed (views/views.tables.ts). */
const ROLLUP_TABLES = [
  'demo_daily_stats',
  'demo_step_daily_stats',
  'demo_daily_viewers',
  'demo_daily_segments',
  'demo_daily_sketches',
  'workspace_daily_sketches',
] as const;

/** The demos with a view that started before `before`: one probe of the (demo_id, started_at) index per demo. */
export async function demosWithViewsBefore(db: Executor, before: Date): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      select d.id from demos d
      where exists (select 1 from views v where v.demo_id = d.id and v.started_at < ${before.toISOString()})`),
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
        delete from views where id in (
          select id from views where demo_id = ${demoId} and started_at < ${before.toISOString()} limit ${limit})
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
        with gone as (delete from ${sql.identifier(table)} where day < ${day}::date returning 1)
        select count(*)::int as n from gone`),
    );
    counts[table] = rows[0]?.n ?? 0;
  }
  return counts;
}
