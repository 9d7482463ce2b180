import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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

/**
 * A side-by-side count comparison, one table a line (tables empty on both sides summed up in one line);
 * `ok` is false if any count differs.
 */
export function compareCounts(
  left: Record<string, number>,
  right: Record<string, number>,
  headings: [string, string],
): { ok: boolean; text: string } {
  const names = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  const width = Math.max(5, ...names.map((n) => n.length));
  let ok = true;
  let empty = 0;
  const lines = [`${'table'.padEnd(width)}  ${headings[0].padStart(10)}  ${headings[1].padStart(10)}`];
  for (const name of names) {
    const a = left[name];
    const b = right[name];
    const same = a === b;
    if (!same) ok = false;
    if (same && a === 0) {
      empty++;
      continue;
    }
    lines.push(`${name.padEnd(width)}  ${String(a ?? '-').padStart(10)}  ${String(b ?? '-').padStart(10)}${same ? '' : '  MISMATCH'}`);
  }
  if (empty > 0) lines.push(`(${empty} more tables, empty on both sides)`);
  return { ok, text: lines.join('\n') };
}
