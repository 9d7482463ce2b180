// Statistics of partitioned parents (views, view_steps: docs/partitioning.md), which no autovacuum keeps.
import { analyzeThreshold } from './autovacuum-thresholds';
import type { Database } from './client';

/**
 * Autovacuum (and the embedded upkeep, which copies its rules) analyzes each partition, never the
 * partitioned parent: its row count and column statistics stay as the last manual ANALYZE left them, or
 * absent. The planner reads them for every query that spans partitions (a view or session looked up by id
 * alone, analytics over a demo's whole life), so it would plan a 100-million-row table as if it were empty.
 * A parent is due when it was never analyzed, or when its partitions now hold more or fewer rows than it
 * counted by autovacuum's analyze threshold (50 rows + 10 %): the row counts are the partitions' own
 * estimates, kept fresh by their per-table analyze, so the check costs one catalog query.
 */

export interface DueParent {
  /** Quoted schema-qualified name, ready for a statement. */
  table: string;
  /** The parent's own count (-1: never analyzed) and its partitions' total. */
  counted: number;
  partitionRows: number;
}

export async function partitionedParentsDue(database: Pick<Database, 'executeSql'>): Promise<DueParent[]> {
  const { rows } = await database.executeSql(`
    select format('%I.%I', n.nspname, p.relname) as "table", p.reltuples as counted,
      coalesce((select sum(greatest(c.reltuples, 0)) from pg_partition_tree(p.oid) t
        join pg_class c on c.oid = t.relid where t.isleaf), 0) as partition_rows
    from pg_class p join pg_namespace n on n.oid = p.relnamespace
    where p.relkind = 'p' and not p.relispartition
      and n.nspname not in ('pg_catalog', 'information_schema')
    order by n.nspname, p.relname`);
  const due: DueParent[] = [];
  for (const row of rows) {
    const counted = Number(row.counted);
    const partitionRows = Number(row.partition_rows);
    const drift = Math.abs(partitionRows - Math.max(counted, 0));
    if (counted < 0 || drift > analyzeThreshold(Math.max(counted, 0))) {
      due.push({ table: String(row.table), counted, partitionRows });
    }
  }
  return due;
}

/**
 * Analyzes the parents that are due, one statement each. From PostgreSQL 17 `ANALYZE ONLY` samples the
 * parent without analyzing every partition again (their own upkeep does that); before, the statement
 * also re-analyzes the partitions: sampled, so bounded whatever their size.
 */
export async function analyzePartitionedParents(
  database: Pick<Database, 'executeSql'>,
): Promise<Array<DueParent & { ms: number }>> {
  const due = await partitionedParentsDue(database);
  if (due.length === 0) return [];
  const { rows } = await database.executeSql(`select current_setting('server_version_num')::int as version`);
  const only = Number(rows[0]!.version) >= 170000 ? 'only ' : '';
  const done: Array<DueParent & { ms: number }> = [];
  for (const parent of due) {
    const started = performance.now();
    await database.executeSql(`analyze ${only}${parent.table}`);
    done.push({ ...parent, ms: Math.round(performance.now() - started) });
  }
  return done;
}
