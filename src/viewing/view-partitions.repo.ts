/**
 * Making the monthly partitions of views and view_steps (names in view-partitions.ts). DDL, so the names
 * are identifiers built from the month, never from input.
 */
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client';
import { giveWayToReaders } from '../db/give-way';
import { defaultPartition, PARTITIONED_TABLES, PARTITIONS_LOCK, type PartitionedTable, partitionMonth, partitionName } from './view-partitions';
import { viewSteps, views } from './viewing.tables';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
/** The partitioning column of each table: a view's start, carried by its step rows. */
const KEY = { views: views.startedAt.name, view_steps: viewSteps.viewStartedAt.name } as const;

/** The months that have a partition of `table`, oldest first (the DEFAULT partition is not one). */
export async function partitionMonths(db: Executor, table: PartitionedTable): Promise<Date[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = to_regclass(${table})`),
  );
  return rows
    .map((r) => partitionMonth(table, r.name))
    .filter((m): m is Date => m !== null)
    .sort((a, b) => a.getTime() - b.getTime());
}

/**
 * Makes the month's partition of both tables, unless it has them; answers whether it made them. Rows of
 * that month already in the DEFAULT partitions (the job did not run ahead) move into the new ones first:
 * PostgreSQL refuses a partition whose rows the DEFAULT one holds. The new tables are attached rather than
 * created as partitions, which locks the parents less (but for a move: then readers wait, see below); steps
 * move before views, as their foreign key needs. One transaction, under an advisory lock, so that two
 * workers never make one month twice.
 */
export async function createMonthPartitions(database: Pick<Database, 'db'>, month: Date, next: Date): Promise<boolean> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITIONS_LOCK})`);
    // Attaching locks the DEFAULT partitions exclusively. A run that gives way leaves the month to a later
    // one; rows meanwhile land in the DEFAULT partitions, as they do for any month without one.
    await giveWayToReaders(tx);
    const [exists] = rowsOf<{ found: boolean }>(
      await tx.execute(sql`select to_regclass(${partitionName('views', month)}) is not null as found`),
    );
    if (exists?.found) return false;
    const from = sql.raw(`'${month.toISOString()}'::timestamptz`);
    const to = sql.raw(`'${next.toISOString()}'::timestamptz`);
    // Rows about to move out of the DEFAULT partition: attaching locks the parents only against other DDL,
    // so a read planned before the commit (its partitions listed without the new one) and run after it (the
    // moved rows gone from DEFAULT) would miss them, as an erasure's DELETE would. Locking the parents first
    // makes such a read wait and plan again on the new partitions. Only then: a month made ahead, the
    // usual case, moves nothing and leaves readers alone.
    const [moving] = rowsOf<{ found: boolean }>(
      await tx.execute(
        sql`select exists (select 1 from ${sql.identifier(defaultPartition('views'))} where ${sql.identifier(KEY.views)} >= ${from} and ${sql.identifier(KEY.views)} < ${to}) as found`,
      ),
    );
    if (moving?.found) await tx.execute(sql`lock table ${views}, ${viewSteps} in access exclusive mode`);
    for (const table of PARTITIONED_TABLES) {
      const name = sql.identifier(partitionName(table, month));
      const key = sql.identifier(KEY[table]);
      await tx.execute(sql`create table ${name} (like ${sql.identifier(table)} including defaults)`);
      await tx.execute(sql`
        insert into ${name} select * from ${sql.identifier(defaultPartition(table))} where ${key} >= ${from} and ${key} < ${to}`);
    }
    for (const table of [...PARTITIONED_TABLES].reverse()) {
      const key = sql.identifier(KEY[table]);
      await tx.execute(sql`delete from ${sql.identifier(defaultPartition(table))} where ${key} >= ${from} and ${key} < ${to}`);
    }
    for (const table of PARTITIONED_TABLES) {
      await tx.execute(
        sql`alter table ${sql.identifier(table)} attach partition ${sql.identifier(partitionName(table, month))} for values from (${from}) to (${to})`,
      );
    }
    return true;
  });
}
