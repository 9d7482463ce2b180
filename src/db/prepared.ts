// Named prepared statements for the hottest reads, cached per database handle or transaction.
import type { SQL } from 'drizzle-orm';
import type { Executor } from './client';

const byExecutor = new WeakMap<Executor, Map<string, unknown>>();

/**
 * A prepared query of the hottest reads, built once per database handle (or transaction) under `name`.
 * Drizzle then skips building the SQL text on every call, and on PostgreSQL the statement is parsed and
 * planned once per connection: together a third of the CPU of a cached-auth API read in the benchmark.
 * `name` must be unique per query text across the application.
 */
export function prepared<P>(db: Executor, name: string, build: (db: Executor, name: string) => P): P {
  let queries = byExecutor.get(db);
  if (!queries) {
    queries = new Map();
    byExecutor.set(db, queries);
  }
  let query = queries.get(name) as P | undefined;
  if (query === undefined) {
    query = build(db, name);
    queries.set(name, query);
  }
  return query;
}

interface DrizzleInternals {
  session: {
    prepareQuery(query: { sql: string; params: unknown[] }, fields: undefined, name: string | undefined, arrayMode: boolean): {
      execute(): Promise<unknown>;
    };
  };
  dialect: { sqlToQuery(sql: SQL): { sql: string; params: unknown[] } };
}

/**
 * Runs raw SQL as a named prepared statement on PostgreSQL: parsed and planned once per connection, as
 * `prepared` does for query builders. (PGlite's driver takes no name; there every parameterised text is
 * prepared once anyway, by db/pglite-statements.ts.)
 * For large statements run on every request, such as the ingestion's data-modifying CTEs, whose parsing
 * and planning cost more than their execution. `name` must stand for one SQL text across the application
 * (a statement whose text varies takes a name per variant).
 *
 * @example
 * const result = await executeNamed(tx, 'ingest_claim', sql`select ${x}::json`);
 */
export function executeNamed(db: Executor, name: string, query: SQL): Promise<unknown> {
  const internals = db as unknown as DrizzleInternals;
  const built = internals.dialect.sqlToQuery(query);
  return internals.session.prepareQuery(built, undefined, name, false).execute();
}
