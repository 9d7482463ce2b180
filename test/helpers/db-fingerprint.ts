import type { Database } from '../../src/db/client';

/**
 * What a request changed in the database, for "a rejected request changes nothing" (test/fuzz.test.ts).
 * A trigger on every table of the public schema counts the rows each statement inserts, deletes or really
 * changes (an UPDATE that leaves a row as it was, ignored columns aside, does not count; TRUNCATE does),
 * per table, in a schema of its own. A fingerprint is that count table: two fingerprints that differ name
 * the tables written in between. The counts live in the writing transaction, so what rolls back is not
 * counted. It costs one small query per request where hashing every row cost tens of milliseconds.
 * `ignore` leaves out whole tables (`'*'`) or some of their columns, for what a rejected request may change.
 */
export type FingerprintIgnore = Record<string, '*' | string[]>;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

const SETUP = `
create schema if not exists fuzz_watch;
create table if not exists fuzz_watch.changes (table_name text primary key, n bigint not null);
create or replace function fuzz_watch.count_change() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and (to_jsonb(old) - tg_argv) = (to_jsonb(new) - tg_argv) then
    return null;
  end if;
  -- A partition's row counts for its partitioned table (views, not views_2026_11): the name requests know.
  insert into fuzz_watch.changes values (coalesce((select relname from pg_class where oid = pg_partition_root(tg_relid)), tg_table_name), 1)
    on conflict (table_name) do update set n = fuzz_watch.changes.n + 1;
  return null;
end $$;`;

export function fingerprinter(database: Database, ignore: FingerprintIgnore = {}) {
  let watched: string[] | undefined;

  async function install(): Promise<string[]> {
    await database.executeSql(SETUP);
    const { rows } = await database.executeSql(
      // Partitions take their partitioned table's triggers (and may not have their own dropped): not listed.
      `select t.table_name from information_schema.tables t
         join pg_class c on c.relname = t.table_name and c.relnamespace = 'public'::regnamespace
       where t.table_schema = 'public' and t.table_type = 'BASE TABLE' and not c.relispartition order by 1`,
    );
    const tables = (rows as Array<{ table_name: string }>).map((r) => r.table_name).filter((name) => ignore[name] !== '*');
    if (tables.length === 0) throw new Error('fingerprint: no tables in the public schema');
    for (const name of tables) {
      const columns = ignore[name];
      const args = Array.isArray(columns) ? columns.map(literal).join(', ') : '';
      await database.executeSql(`drop trigger if exists fuzz_watch on public.${quote(name)}`);
      await database.executeSql(`drop trigger if exists fuzz_watch_truncate on public.${quote(name)}`);
      await database.executeSql(
        `create trigger fuzz_watch after insert or update or delete on public.${quote(name)} for each row execute function fuzz_watch.count_change(${args})`,
      );
      await database.executeSql(
        `create trigger fuzz_watch_truncate after truncate on public.${quote(name)} for each statement execute function fuzz_watch.count_change()`,
      );
    }
    return tables;
  }

  return {
    async take(): Promise<Map<string, string>> {
      watched ??= await install();
      const { rows } = await database.executeSql('select table_name, n from fuzz_watch.changes');
      return new Map((rows as Array<{ table_name: string; n: string | number }>).map((r) => [r.table_name, String(r.n)]));
    },
    /** The tables watched (after the first `take`). */
    tables: () => watched ?? [],
  };
}

/** The tables whose count differs between two fingerprints. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}
