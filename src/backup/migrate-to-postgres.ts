import path from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client';
import { DataDirLockedError } from '../db/data-dir-lock';
import { JobQueue } from '../jobs/queue';
import { RECORDER_CLIENT_ID } from '../oauth/recorder-client';
import { BackupError } from './embedded-backup';
import { compareCounts, countRows, DATA_SCHEMAS, dataTables, type RunSql } from './tables';

/** Tables the target fills itself: migrations by migrating, pg-boss's by installing, queues by create_queue. */
const NOT_COPIED = new Set(['drizzle.__drizzle_migrations', 'pgboss.version', 'pgboss.queue']);
/** Rows a target may hold and still count as empty: what migrating it, or a server started on it once, leaves. */
const ALLOWED_IN_TARGET = new Set([...NOT_COPIED, 'pgboss.schedule']);
/**
 * Rows the migrations themselves insert (the built-in recorder OAuth client): a freshly migrated target has
 * them, and the source's own copies replace them.
 */
const SEEDED: Record<string, string> = { 'public.oauth_apps': `id = '${RECORDER_CLIENT_ID}'` };
/** Rows per round trip; fewer for tables holding images, so a batch stays a few megabytes. */
const BATCH_ROWS = 500;
const BATCH_ROWS_BINARY = 20;

export interface MigrateResult {
  comparison: string;
  rows: number;
}

/**
 * Copies the embedded database in DATA_DIR into an empty PostgreSQL database: the schema is made by the
 * migrations, then every row of every table (job queue included, so pending jobs carry over) is copied in
 * one transaction, sequences are set to the source's values, and the counts of both sides are compared
 * before it commits. A failure leaves the target as empty as it was, so the command can run again.
 */
export async function migrateToPostgres(options: {
  dataDir: string;
  url: string;
  log: (line: string) => void;
}): Promise<MigrateResult> {
  const target = new pg.Client({ connectionString: options.url });
  try {
    await target.connect();
  } catch (error) {
    throw new BackupError(`Cannot connect to the target database: ${(error as Error).message}`);
  }
  try {
    const runTarget: RunSql = (text, values) => target.query(text, values as unknown[]);
    const nonEmpty: Array<[string, number]> = [];
    for (const table of await dataTables(runTarget)) {
      if (ALLOWED_IN_TARGET.has(table.name)) continue;
      const seeded = SEEDED[table.name];
      const { rows } = await target.query(`select count(*)::int as n from ${table.sql}${seeded ? ` where not (${seeded})` : ''}`);
      if (Number(rows[0]?.n) > 0) nonEmpty.push([table.name, Number(rows[0]?.n)]);
    }
    const other = await runTarget(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname <> all($1::text[])
          and n.nspname not in ('pg_catalog', 'information_schema', 'drizzle') and n.nspname not like 'pg_toast%'`,
      [[...DATA_SCHEMAS]],
    );
    if (nonEmpty.length > 0 || Number(other.rows[0]?.n) > 0) {
      throw new BackupError(
        'The target database is not empty' +
          (nonEmpty.length > 0 ? ` (${nonEmpty.map(([name, n]) => `${name}: ${n} rows`).join(', ')})` : ' (it has tables of its own)') +
          '. migrate-to-postgres only writes into an empty database: create a new one (CREATE DATABASE demoshare) ' +
          'and pass its URL. Nothing was changed.',
      );
    }

    const source = await openSource(options.dataDir);
    try {
      options.log('Preparing the target: migrations and the job queue schema...');
      const prepared = await openDatabase({ url: options.url, poolSize: 2 });
      try {
        await prepared.migrate();
        const queue = new JobQueue(prepared, { work: false });
        await queue.start(() => {});
        await queue.stop(1_000);
      } finally {
        await prepared.close();
      }
      return await copyAll(source, target, options.log);
    } finally {
      await source.close();
    }
  } finally {
    await target.end().catch(() => {});
  }
}

async function openSource(dataDir: string): Promise<Database> {
  try {
    const database = await openDatabase({ dataDir });
    try {
      // Brought to this version's schema (and job queue schema) first, as `demoshare start` would: both
      // sides then have the same columns.
      await database.migrate();
      const queue = new JobQueue(database, { work: false });
      await queue.start(() => {});
      await queue.stop(1_000);
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new BackupError(
        `Cannot read the embedded database while Demoshare is running on ${path.resolve(error.dataDir)} (pid ${error.pid}): ` +
          'stop the server first. Nothing was changed.',
      );
    }
    throw error;
  }
}

async function copyAll(source: Database, target: pg.Client, log: (line: string) => void): Promise<MigrateResult> {
  const runSource: RunSql = (text, values) => source.executeSql(text, values);
  const runTarget: RunSql = (text, values) => target.query(text, values as unknown[]);
  const tables = await dataTables(runSource);
  const sourceCounts = await countRows(runSource, tables);
  let rows = 0;

  await target.query('BEGIN');
  try {
    // demos and assets refer to each other: foreign keys are checked at the end instead of row by row.
    const keys = await runTarget(
      `select conrelid::regclass::text as tbl, conname from pg_constraint
        where contype = 'f' and not condeferrable and connamespace = 'public'::regnamespace`,
    );
    const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
    for (const key of keys.rows) {
      await target.query(`ALTER TABLE ${key.tbl} ALTER CONSTRAINT ${quote(String(key.conname))} DEFERRABLE INITIALLY DEFERRED`);
    }

    // Queues through pg-boss's own function, which also makes each queue's job partition; dead-letter
    // queues first, since a queue names its dead-letter queue.
    const queues = (await runSource('select * from pgboss.queue order by (dead_letter is not null), name', [])).rows;
    for (const q of queues) {
      await target.query('select pgboss.create_queue($1, $2::json)', [
        q.name,
        JSON.stringify({
          policy: q.policy,
          retryLimit: q.retry_limit,
          retryDelay: q.retry_delay,
          retryBackoff: q.retry_backoff,
          expireInSeconds: q.expire_seconds,
          retentionMinutes: q.retention_minutes,
          deadLetter: q.dead_letter,
        }),
      ]);
    }

    // A server started on the target once left its schedules: the source's replace them, as they replace
    // the rows the migrations seeded.
    await target.query('DELETE FROM pgboss.schedule');
    for (const [name, seeded] of Object.entries(SEEDED)) {
      const [schema, table] = name.split('.') as [string, string];
      await target.query(`DELETE FROM "${schema}"."${table}" WHERE ${seeded}`);
    }
    for (const table of tables) {
      if (NOT_COPIED.has(table.name)) continue;
      const copied = await copyTable(source, target, table);
      rows += copied;
      if (copied > 0) log(`  ${table.name}: ${copied} rows`);
    }

    const sequences = await runSource(
      `select schemaname as schema, sequencename as name, last_value::text as value
         from pg_sequences where schemaname = any($1::text[]) and last_value is not null`,
      [[...DATA_SCHEMAS]],
    );
    for (const seq of sequences.rows) {
      await target.query('select setval($1::regclass, $2::bigint, true)', [`${quote(String(seq.schema))}.${quote(String(seq.name))}`, seq.value]);
    }

    await target.query('SET CONSTRAINTS ALL IMMEDIATE');
    for (const key of keys.rows) {
      await target.query(`ALTER TABLE ${key.tbl} ALTER CONSTRAINT ${quote(String(key.conname))} NOT DEFERRABLE`);
    }

    const targetCounts = await countRows(runTarget, await dataTables(runTarget));
    // The target's own bookkeeping (its migrations, pg-boss's version and schedules) is not data carried over.
    for (const name of ['drizzle.__drizzle_migrations', 'pgboss.version']) {
      delete sourceCounts[name];
      delete targetCounts[name];
    }
    const comparison = compareCounts(sourceCounts, targetCounts, ['embedded', 'postgres']);
    if (!comparison.ok) {
      throw new BackupError(`The counts differ, so nothing was committed:\n${comparison.text}`);
    }
    await target.query('COMMIT');
    return { comparison: comparison.text, rows };
  } catch (error) {
    await target.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** Copies one table's rows as JSON: PostgreSQL itself turns each value back into its column's type. */
async function copyTable(source: Database, target: pg.Client, table: { sql: string; name: string }): Promise<number> {
  const columns = await target.query(
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type
       from pg_attribute a
      where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      order by a.attnum`,
    [table.sql],
  );
  const list = columns.rows.map((c) => `"${String(c.name).replaceAll('"', '""')}"`).join(', ');
  const binary = columns.rows.some((c) => c.type === 'bytea');
  const batch = binary ? BATCH_ROWS_BINARY : BATCH_ROWS;
  const insert =
    `INSERT INTO ${table.sql} (${list}) OVERRIDING SYSTEM VALUE ` +
    `SELECT ${list} FROM json_populate_recordset(null::${table.sql}, $1::json)`;

  let copied = 0;
  // One cursor over the source table (PGlite is one connection: nothing else runs meanwhile).
  await source.executeSql('BEGIN READ ONLY');
  try {
    await source.executeSql(`DECLARE copy_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS row FROM ${table.sql} t`);
    for (;;) {
      const { rows } = await source.executeSql(`FETCH ${batch} FROM copy_rows`);
      if (rows.length === 0) break;
      await target.query(insert, [`[${rows.map((r) => r.row as string).join(',')}]`]);
      copied += rows.length;
    }
  } finally {
    await source.executeSql('COMMIT');
  }
  return copied;
}
