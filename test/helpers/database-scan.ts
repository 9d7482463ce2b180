import type { Database } from '../../src/db/client';
import type { BlobStore } from '../../src/core/blob-store/blob-store';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface ScannedColumn {
  table_schema: string;
  table_name: string;
  column_name: string;
  data_type: string;
}

/**
 * Every column that can hold words, of every table in every schema but the catalogs: text of any kind,
 * JSON, arrays, enums and other user types (read as their text form) and bytea (as bytes).
 */
export async function textColumns(database: Database): Promise<ScannedColumn[]> {
  const { rows } = await database.executeSql(
    `select c.table_schema, c.table_name, c.column_name, c.data_type
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema not in ('pg_catalog', 'information_schema') and t.table_type = 'BASE TABLE'
        and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea', 'ARRAY', 'xml', 'USER-DEFINED')
      order by 1, 2, 3`,
  );
  return rows as unknown as ScannedColumn[];
}

/**
 * The columns (`schema.table.column`) of the whole database that hold `needle` somewhere in one of their
 * values (bytea as UTF-8 bytes): for proving a secret was stored nowhere.
 */
export async function findInDatabase(database: Database, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const column of await textColumns(database)) {
    const name = quote(column.column_name);
    const match = column.data_type === 'bytea' ? `position(convert_to($1, 'UTF8') in ${name}) > 0` : `strpos(${name}::text, $1) > 0`;
    const table = `${quote(column.table_schema)}.${quote(column.table_name)}`;
    const found = await database.executeSql(`select 1 from ${table} where ${match} limit 1`, [needle]);
    if (found.rows.length > 0) hits.push(`${column.table_schema}.${column.table_name}.${column.column_name}`);
  }
  return hits;
}

/**
 * Every place that holds `needle`: the database's columns (as findInDatabase names them) and `asset store`
 * when a blob of the app's asset store does (the embedded default keeps pictures and snapshots in files), for
 * proving a secret was stored nowhere and for finding where something is kept.
 */
export async function findStored(ctx: { database: Database; assetStore?: BlobStore }, needle: string): Promise<string[]> {
  const hits = await findInDatabase(ctx.database, needle);
  const store = ctx.assetStore;
  if (!store) return hits;
  const bytes = Buffer.from(needle, 'utf8');
  for await (const page of store.list()) {
    for (const blob of page) {
      if ((await store.get(blob.key))?.includes(bytes)) return [...hits, 'asset store'];
    }
  }
  return hits;
}
