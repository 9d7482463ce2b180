// The condition of a keyset page: the rows after a given row in (created_at, id) order, by row comparison.
import { getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * Rows of `table` after the row `after.id` in `order` of (`at`, `id`), the order a list pages in. The row's
 * own time is read from the table, at full precision (a cursor carries milliseconds, PostgreSQL stores
 * microseconds); should that row be gone, the cursor's time stands in. With an index on (…, at, id) in the
 * same order this is a range scan: each page costs the same however deep.
 *
 * @example
 * ```ts
 * import { and, desc, eq } from 'drizzle-orm';
 * import { demos } from '../demos/demos.tables';
 * import { afterRow } from './keyset';
 *
 * const where = and(eq(demos.workspaceId, 'ws_1'), afterRow(demos, demos.createdAt, demos.id, { at: new Date(), id: 'demo_1' }, 'desc'));
 * ```
 */
export function afterRow(table: PgTable, at: PgColumn, id: PgColumn, after: { at: Date; id: string }, order: 'asc' | 'desc'): SQL {
  const name = sql.identifier(getTableName(table));
  const atName = sql.identifier(at.name);
  const idName = sql.identifier(id.name);
  const op = sql.raw(order === 'desc' ? '<' : '>');
  const stored = sql`(select k.${atName} from ${name} k where k.${idName} = ${after.id})`;
  return sql`(${name}.${atName}, ${name}.${idName}) ${op} (coalesce(${stored}, ${after.at.toISOString()}::timestamptz), ${after.id})`;
}
