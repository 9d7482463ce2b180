// Which tables and schemas a backup, restore or migration carries: read from the database's catalog, not listed by hand.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Catalog queries and the generic row copy of backup, restore and migrate-to-postgres: they work on every
// table through PostgreSQL's catalog, so they name no domain's tables.

/** A query runner: the app's Database, or a bare pg client in a transaction. */
export type RunSql = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** Schemas holding the service's data: its tables, and the job queue's. */
export const DATA_SCHEMAS = ['public', 'pgboss'] as const;

export interface TableInfo {
  /** Schema-qualified and quoted, ready for SQL. */
  sql: string;
  /** `schema.table`, as printed and as keyed in a manifest. */
  name: string;
}

/**
 * The tables that hold rows, in a stable order: partitioned parents stand for their partitions (pg-boss
 * keeps one job partition per queue, whose names are hashes).
 */
export async function dataTables(run: RunSql): Promise<TableInfo[]> {
  const { rows } = await run(
    `select n.nspname as schema, c.relname as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and not c.relispartition and n.nspname = any($1::text[])
      order by n.nspname, c.relname`,
    [[...DATA_SCHEMAS]],
  );
  return rows.map((r) => ({
    sql: `"${String(r.schema).replaceAll('"', '""')}"."${String(r.name).replaceAll('"', '""')}"`,
    name: `${r.schema}.${r.name}`,
  }));
}

export async function countRows(run: RunSql, tables: TableInfo[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await run(`select count(*)::int as n from ${table.sql}`, []);
    counts[table.name] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

const JOURNAL = fileURLToPath(new URL('../../drizzle/meta/_journal.json', import.meta.url));

/** The migrations this version of the code knows, oldest first. */
export function knownMigrations(): Array<{ tag: string; when: number }> {
  return (JSON.parse(readFileSync(JOURNAL, 'utf8')) as { entries: Array<{ tag: string; when: number }> }).entries;
}

/** How far the database is migrated: drizzle records each applied migration with its journal timestamp. */
export async function migrationLevel(run: RunSql): Promise<{ applied: number; latest: string | null }> {
  const exists = await run(`select to_regclass('drizzle.__drizzle_migrations') is not null as present`, []);
  if (!exists.rows[0]?.present) return { applied: 0, latest: null };
  const { rows } = await run('select count(*)::int as n, max(created_at)::text as latest from drizzle.__drizzle_migrations', []);
  const latestWhen = rows[0]?.latest == null ? null : Number(rows[0].latest);
  const tag = knownMigrations().find((m) => m.when === latestWhen)?.tag ?? (latestWhen === null ? null : `unknown (${latestWhen})`);
  return { applied: Number(rows[0]?.n ?? 0), latest: tag };
}

/** Rows in `table` besides those matching `except` (an SQL condition), to tell an empty target from a used one. */
export async function countRowsExcept(run: RunSql, table: TableInfo, except?: string): Promise<number> {
  const { rows } = await run(`select count(*)::int as n from ${table.sql}${except ? ` where not (${except})` : ''}`, []);
  return Number(rows[0]?.n ?? 0);
}

/** Tables outside the service's schemas (another application's): their presence makes a target not empty. */
export async function countForeignTables(run: RunSql): Promise<number> {
  const { rows } = await run(
    `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname <> all($1::text[])
        and n.nspname not in ('pg_catalog', 'information_schema', 'drizzle') and n.nspname not like 'pg_toast%'`,
    [[...DATA_SCHEMAS]],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function deleteRowsWhere(run: RunSql, table: string, condition: string): Promise<void> {
  const [schema, name] = table.split('.') as [string, string];
  await run(`DELETE FROM ${quote(schema)}.${quote(name)} WHERE ${condition}`, []);
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Makes the public schema's immediate foreign keys deferred for the rest of the transaction (demos and
 * their images refer to each other, so no table order satisfies them row by row); the returned function
 * checks them all and makes them immediate again, before commit. Only the keys declared on a table: those a
 * partition inherits from its partitioned table (conparentid) follow their parent's, and refuse a change
 * of their own.
 */
export async function deferForeignKeys(run: RunSql): Promise<() => Promise<void>> {
  const { rows } = await run(
    `select conrelid::regclass::text as tbl, conname from pg_constraint
      where contype = 'f' and not condeferrable and connamespace = 'public'::regnamespace and conparentid = 0`,
    [],
  );
  for (const key of rows) {
    await run(`ALTER TABLE ${key.tbl} ALTER CONSTRAINT ${quote(String(key.conname))} DEFERRABLE INITIALLY DEFERRED`, []);
  }
  return async () => {
    await run('SET CONSTRAINTS ALL IMMEDIATE', []);
    for (const key of rows) await run(`ALTER TABLE ${key.tbl} ALTER CONSTRAINT ${quote(String(key.conname))} NOT DEFERRABLE`, []);
  };
}

/**
 * The source's job queues made on the target through pg-boss's own function, which also creates each
 * queue's job partition; dead-letter queues first, since a queue names its dead-letter queue.
 */
export async function copyQueues(source: RunSql, target: RunSql): Promise<void> {
  const { rows } = await source('select * from pgboss.queue order by (dead_letter is not null), name', []);
  for (const q of rows) {
    await target('select pgboss.create_queue($1, $2::json)', [
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
}

/** Sets every sequence of the target to the source's value, so new rows do not collide with copied ones. */
export async function copySequences(source: RunSql, target: RunSql): Promise<void> {
  const { rows } = await source(
    `select schemaname as schema, sequencename as name, last_value::text as value
       from pg_sequences where schemaname = any($1::text[]) and last_value is not null`,
    [[...DATA_SCHEMAS]],
  );
  for (const seq of rows) {
    await target('select setval($1::regclass, $2::bigint, true)', [`${quote(String(seq.schema))}.${quote(String(seq.name))}`, seq.value]);
  }
}

/** Rows per round trip; fewer for tables holding images, so a batch stays a few megabytes. */
const BATCH_ROWS = 500;
const BATCH_ROWS_BINARY = 20;

/**
 * Copies one table's rows as JSON: PostgreSQL itself turns each value back into its column's type. The
 * source is PGlite, one connection: the cursor's transaction is the only thing running on it meanwhile.
 * A column that records the writing transaction's id (default `pg_current_xact_id()`, the audit log's
 * `tx_id`) is left for the target to fill: the source's ids would run ahead of the target's own, and the
 * audit feed would then order every later entry before the copied ones.
 */
export async function copyTable(source: RunSql, target: RunSql, table: TableInfo): Promise<number> {
  const columns = await target(
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type
       from pg_attribute a
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        and coalesce(pg_get_expr(d.adbin, d.adrelid), '') not like '%pg_current_xact_id()%'
      order by a.attnum`,
    [table.sql],
  );
  const list = columns.rows.map((c) => quote(String(c.name))).join(', ');
  const batch = columns.rows.some((c) => c.type === 'bytea') ? BATCH_ROWS_BINARY : BATCH_ROWS;
  const insert =
    `INSERT INTO ${table.sql} (${list}) OVERRIDING SYSTEM VALUE ` +
    `SELECT ${list} FROM json_populate_recordset(null::${table.sql}, $1::json)`;
  let copied = 0;
  await source('BEGIN READ ONLY', []);
  try {
    await source(`DECLARE copy_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS row FROM ${table.sql} t`, []);
    for (;;) {
      const { rows } = await source(`FETCH ${batch} FROM copy_rows`, []);
      if (rows.length === 0) break;
      await target(insert, [`[${rows.map((r) => r.row as string).join(',')}]`]);
      copied += rows.length;
    }
  } finally {
    await source('COMMIT', []);
  }
  return copied;
}

/**
 * The blob keys (`sha256/<hex>`) that asset rows name, each once: the blobs a backup or a move depends on.
 * A database from before assets could live in a blob store (migration 0044) names none.
 */
export async function namedBlobKeys(run: RunSql): Promise<string[]> {
  const { rows: columns } = await run(
    `select 1 from information_schema.columns where table_schema = 'public' and table_name = 'assets' and column_name = 'blob_key'`,
  );
  if (columns.length === 0) return [];
  const { rows } = await run('select distinct blob_key from public.assets where blob_key is not null order by blob_key');
  return rows.map((r) => String(r.blob_key));
}
