// How many migrations a database still lacks (start-up's "Applying N database migrations…"), read from drizzle's own table.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client';

/** The migrations folder db/client.ts applies (drizzle/ at the repository's root). */
const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * Migrations the journal lists that the database has not applied yet; undefined when it cannot tell. Start-up
 * says how many it is about to apply.
 *
 * @example
 * ```ts
 * import { pendingMigrations } from './pending-migrations';
 *
 * const pending = await pendingMigrations(database); // 0 on a migrated database, 28 on a new one
 * ```
 */
export async function pendingMigrations(database: Database): Promise<number | undefined> {
  try {
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
    const { rows } = await database
      .executeSql(
        "select count(*)::int as n from information_schema.tables where table_schema = 'drizzle' and table_name = '__drizzle_migrations'",
      )
      .then(async (found) => (Number(found.rows[0]?.n) > 0 ? database.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations') : { rows: [{ n: 0 }] }));
    return Math.max(0, journal.entries.length - Number(rows[0]?.n ?? 0));
  } catch {
    return undefined;
  }
}
