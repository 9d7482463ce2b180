/**
 * Deleting the views, and the analytics roll-ups, of the days past VIEW_RETENTION. Views are credited to the
 * UTC day they started (view-progress.ts), so the views before a day's start and the roll-up rows of the days
 * before it are the same set of data: what remains still adds up. Views and their steps are partitioned by
 * month (docs/partitioning.md): a month wholly past the retention goes as two dropped tables, the rest row
 * by row.
 */
import { getTableName, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client';
import { giveWayToReaders } from '../db/give-way';
import { demos } from '../demos/demos.tables';
import { leads } from '../leads/leads.tables';
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
  viewerSessions,
  viewSteps,
  views,
  workspaceDailySketches,
} from '../viewing/viewing.tables';
import { PARTITIONS_LOCK, partitionMonth, partitionName } from '../viewing/view-partitions';

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
 * Deletes up to `limit` of the demo's views that started before `before` (their step times go with them by
 * cascade, and the leads that named them forget them, as a foreign key's `set null` would); returns how many
 * went. In batches, so that no statement holds the table, or PGlite, for long.
 */
export async function deleteViewsBefore(db: Executor, demoId: string, before: Date, limit: number): Promise<number> {
  const rows = rowsOf<{ n: number }>(
    await db.execute(sql`
      with gone as (
        delete from ${views} where (${views.id}, ${views.startedAt}) in (
          select ${views.id}, ${views.startedAt} from ${views}
          where ${views.demoId} = ${demoId} and ${views.startedAt} < ${before.toISOString()} limit ${limit})
        returning ${views.id}),
      unlinked as (
        update ${leads} set ${sql.identifier(leads.viewId.name)} = null
        where ${leads.demoId} = ${demoId} and ${leads.viewId} in (select ${sql.identifier(views.id.name)} from gone))
      select count(*)::int as n from gone`),
  );
  return rows[0]?.n ?? 0;
}

/** The months whose partition of views ends at or before `before`: whole months past the retention. */
export async function monthsEndingBy(db: Executor, before: Date): Promise<Date[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = to_regclass(${getTableName(views)})`),
  );
  return rows
    .map((r) => partitionMonth('views', r.name))
    .filter((m): m is Date => m !== null && Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1) <= before.getTime())
    .sort((a, b) => a.getTime() - b.getTime());
}

/**
 * Drops a month's partitions of views and view_steps; returns the views they held. What referred to those
 * views without a foreign key forgets them first (leads, and a session's view, though such sessions have
 * long expired: VIEW_RETENTION outlives VIEWER_SESSION_TTL). A partition of a table that a foreign key
 * references is detached before it is dropped; the steps go first, as that key needs. One transaction: the
 * month goes whole or not at all.
 */
export async function dropMonth(database: Pick<Database, 'db'>, month: Date): Promise<number> {
  const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
  const viewsPart = sql.identifier(partitionName('views', month));
  const stepsPart = sql.identifier(partitionName('view_steps', month));
  return database.db.transaction(async (tx) => {
    // After the partitions job's run, if one is under way: the two give way to readers, not to each other.
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITIONS_LOCK})`);
    const [count] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from ${viewsPart}`));
    await tx.execute(sql`
      update ${leads} set ${sql.identifier(leads.viewId.name)} = null
      where ${leads.viewId} in (select ${sql.identifier(views.id.name)} from ${viewsPart})`);
    await tx.execute(sql`
      update ${viewerSessions} set ${sql.identifier(viewerSessions.viewId.name)} = null, ${sql.identifier(viewerSessions.viewStartedAt.name)} = null
      where ${viewerSessions.viewStartedAt} >= ${month.toISOString()} and ${viewerSessions.viewStartedAt} < ${next.toISOString()}`);
    // Detaching locks each parent exclusively. A run that gives way keeps the month whole for a later one.
    await giveWayToReaders(tx);
    await tx.execute(sql`alter table ${viewSteps} detach partition ${stepsPart}`);
    await tx.execute(sql`drop table ${stepsPart}`);
    await tx.execute(sql`alter table ${views} detach partition ${viewsPart}`);
    await tx.execute(sql`drop table ${viewsPart}`);
    return count?.n ?? 0;
  });
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
