// A column's bare name, for the places SQL refuses a table-qualified one (SET targets, INSERT column lists).
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * `"column"` where drizzle would write `"table"."column"`: still named through the typed column, so a
 * renamed or dropped column fails the typecheck instead of the statement.
 */
export const columnName = (column: PgColumn): SQL => sql`${sql.identifier(column.name)}`;

/** `("a", "b", ...)`: an INSERT's column list. */
export const columnList = (...columns: PgColumn[]): SQL => sql`(${sql.join(columns.map(columnName), sql`, `)})`;
