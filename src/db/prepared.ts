// Named prepared statements for the hottest reads, cached per database handle or transaction.
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
