import type { Database } from '../../src/db/client';

/**
 * Every value of every text, JSON, array and bytea column of the database, as one string, so that a test
 * can prove a secret is stored nowhere. Bytea is read with `encode(..., 'escape')`, which keeps ASCII
 * readable: a password inside a stored HTML snapshot or an uploaded body is found too.
 */
export async function databaseText(database: Database): Promise<string> {
  const columns = await database.executeSql(
    `select table_schema, table_name, column_name, data_type from information_schema.columns
      where table_schema not in ('pg_catalog', 'information_schema')
        and data_type in ('text', 'character varying', 'character', 'jsonb', 'json', 'ARRAY', 'bytea')`,
    [],
  );
  const parts: string[] = [];
  for (const c of columns.rows) {
    const value = c.data_type === 'bytea' ? `encode("${c.column_name}", 'escape')` : `"${c.column_name}"::text`;
    const rows = await database.executeSql(
      `select ${value} as v from "${c.table_schema}"."${c.table_name}" where "${c.column_name}" is not null`,
      [],
    );
    for (const r of rows.rows) parts.push(String(r.v));
  }
  return parts.join('\n');
}
