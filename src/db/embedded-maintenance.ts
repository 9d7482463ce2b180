// The upkeep PGlite lacks: autovacuum (VACUUM and ANALYZE at autovacuum's thresholds) and checkpoints by WAL volume.
import type { Logger } from 'pino';
import { analyzeThreshold, insertVacuumThreshold, vacuumThreshold } from './autovacuum-thresholds';
import type { Database } from './client';
import { analyzePartitionedParents, type DueParent } from './partitioned-statistics';

/**
 * PGlite runs PostgreSQL as one backend in single-user mode: there is no autovacuum launcher and no
 * checkpointer. So nothing ever vacuums or analyzes the embedded database: the planner guesses a table of
 * any size holds a couple of rows, deleted rows' space is never reused, and no page is marked all-visible.
 * And nothing checkpoints it while it runs: the WAL grows with every write until the process stops, and a
 * crash replays all of it at the next start. This does autovacuum's job, with autovacuum's own thresholds
 * read from the statistics PGlite does keep (pg_stat_user_tables), and the checkpointer's, by WAL volume.
 */

export interface DueTable {
  /** Quoted schema-qualified name, ready for a statement. */
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

/** A checkpoint once this much WAL was written since the last one (the checkpointer's max_wal_size trigger). */
export const CHECKPOINT_WAL_BYTES = 64 * 1024 * 1024;

export interface MaintenanceRun {
  tables: Array<DueTable & { ms: number }>;
  /** Partitioned parents analyzed after their partitions (src/db/partitioned-statistics.ts). */
  parents: Array<DueParent & { ms: number }>;
  /** Set when the pass checkpointed: the WAL written since the previous checkpoint, and what it took. */
  checkpoint?: { walBytes: number; ms: number };
  ms: number;
}

/**
 * The tables autovacuum would pick now. A table never analyzed (reltuples < 0: a fresh install, or data from
 * before this ran) is due for both, whatever its counters say, since they restart empty after a crash.
 */
export async function tablesDue(database: Pick<Database, 'executeSql'>): Promise<DueTable[]> {
  // Statistics reach the shared counters at most once a second; the flush this asks for happens at the end
  // of this statement's transaction, so the next statement reads this process's latest changes.
  await database.executeSql('select pg_stat_force_next_flush()');
  const { rows } = await database.executeSql(`
    select format('%I.%I', s.schemaname, s.relname) as "table",
      c.reltuples < 0 as never_analyzed,
      greatest(c.reltuples, 0) as reltuples,
      s.n_dead_tup, s.n_ins_since_vacuum, s.n_mod_since_analyze
    from pg_stat_user_tables s
    join pg_class c on c.oid = s.relid
    where c.relkind = 'r'
    order by s.schemaname, s.relname`);
  const due: DueTable[] = [];
  for (const row of rows) {
    const size = Number(row.reltuples);
    const never = row.never_analyzed === true;
    const vacuum =
      never ||
      Number(row.n_dead_tup) > vacuumThreshold(size) ||
      Number(row.n_ins_since_vacuum) > insertVacuumThreshold(size);
    const analyze = never || Number(row.n_mod_since_analyze) > analyzeThreshold(size);
    if (vacuum || analyze) due.push({ table: String(row.table), vacuum, analyze });
  }
  return due;
}

/**
 * Vacuums and analyzes the tables that are due, one statement per table: PGlite runs one statement at a
 * time, so requests wait for one table's pass, never for the whole database's.
 */
export async function runEmbeddedMaintenance(
  database: Pick<Database, 'executeSql'>,
  options: { checkpointWalBytes?: number } = {},
): Promise<MaintenanceRun> {
  const started = performance.now();
  const tables: MaintenanceRun['tables'] = [];
  for (const due of await tablesDue(database)) {
    const t0 = performance.now();
    const statement = due.vacuum ? `vacuum (analyze ${due.analyze}) ${due.table}` : `analyze ${due.table}`;
    await database.executeSql(statement);
    tables.push({ ...due, ms: Math.round(performance.now() - t0) });
  }
  // After the partitions, whose fresh row counts tell whether their parent's statistics drifted.
  const parents = await analyzePartitionedParents(database);
  // After the vacuums, whose WAL it then covers.
  const walBytes = await walSinceCheckpoint(database);
  let checkpoint: MaintenanceRun['checkpoint'];
  if (walBytes >= (options.checkpointWalBytes ?? CHECKPOINT_WAL_BYTES)) {
    const t0 = performance.now();
    await database.executeSql('checkpoint');
    checkpoint = { walBytes, ms: Math.round(performance.now() - t0) };
  }
  return { tables, parents, checkpoint, ms: Math.round(performance.now() - started) };
}

/** Bytes of WAL written since the last checkpoint began: what a crash would replay. */
export async function walSinceCheckpoint(database: Pick<Database, 'executeSql'>): Promise<number> {
  const { rows } = await database.executeSql(
    'select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::bigint as bytes from pg_control_checkpoint()',
  );
  return Number(rows[0]!.bytes);
}

/**
 * Runs the maintenance every `intervalMs` (autovacuum's naptime), one pass at a time. `stop` waits for a pass
 * under way, so the database is never closed under a VACUUM or a checkpoint.
 */
export class EmbeddedMaintenance {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly database: Pick<Database, 'executeSql'>,
    private readonly intervalMs: number,
    private readonly log: Pick<Logger, 'info' | 'warn'>,
  ) {}

  /** The first pass runs at once: a database upgraded from a release without this is analyzed on start. */
  start(): void {
    this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private tick(): void {
    if (this.stopped) return;
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (!this.stopped) this.timer = setTimeout(() => this.tick(), this.intervalMs).unref();
    });
  }

  private async pass(): Promise<void> {
    try {
      const run = await runEmbeddedMaintenance(this.database);
      if (run.tables.length === 0 && run.parents.length === 0 && !run.checkpoint) return;
      const slowest = run.tables.reduce<(typeof run.tables)[number] | undefined>((a, b) => (!a || b.ms > a.ms ? b : a), undefined);
      this.log.info(
        {
          tables: run.tables.length,
          parents: run.parents.length > 0 ? run.parents.map((p) => p.table) : undefined,
          ms: run.ms,
          slowest: slowest?.table,
          slowestMs: slowest?.ms,
          checkpointWalMb: run.checkpoint ? Math.round(run.checkpoint.walBytes / 1_048_576) : undefined,
          checkpointMs: run.checkpoint?.ms,
        },
        'embedded database maintenance',
      );
    } catch (error) {
      // The next pass tries again; a failed VACUUM leaves the table as it was.
      this.log.warn({ err: error }, 'embedded database maintenance failed');
    }
  }
}
