// Counts the statements an app sends to its database, at the driver (PGlite or the pg pool), with their text.
import type { Database } from '../../src/db/client';

type Callable = (...args: unknown[]) => unknown;

/**
 * Watches every statement sent through `database` (Drizzle's queries, raw SQL and transactions) from now
 * on, at the driver itself: nothing is replaced, each call is counted and passed through. A PostgreSQL
 * transaction checks a client out of the pool and counts its statements there; a PGlite transaction counts
 * as one call plus its statements.
 *
 * @example
 * ```ts
 * const queries = countQueries(t.db.database);
 * await t.app.inject({ method: 'GET', url: '/v1/demos', headers: bearer(key) });
 * expect(queries.take()).toHaveLength(2);
 * ```
 */
export function countQueries(database: Database) {
  const seen: string[] = [];
  const client = (database.db as unknown as { $client: Record<string, Callable> }).$client;
  const restore: Array<() => void> = [];
  const wrap = (target: Record<string, Callable>, method: string, label: (args: unknown[]) => string) => {
    const original = target[method]!;
    target[method] = function (this: unknown, ...args: unknown[]) {
      seen.push(label(args));
      return original.apply(this, args);
    };
    restore.push(() => {
      target[method] = original;
    });
  };
  const text = (args: unknown[]) => {
    const first = args[0];
    return typeof first === 'string' ? first : String((first as { text?: string })?.text ?? first);
  };
  if (database.kind === 'pglite') {
    wrap(client, 'query', text);
    wrap(client, 'exec', text);
    wrap(client, 'transaction', () => 'BEGIN (transaction)');
  } else {
    const pool = database.pool!;
    wrap(pool as unknown as Record<string, Callable>, 'query', text);
    // A checked-out client (a transaction): its statements are counted too, once per checkout.
    const connect = pool.connect.bind(pool) as unknown as Callable;
    (pool as unknown as Record<string, Callable>).connect = (...args: unknown[]) => {
      // pool.query checks a client out with a callback: that statement is counted by the query wrapper.
      if (typeof args[0] === 'function') return connect(...args);
      return checkout(args);
    };
    const checkout = async (args: unknown[]) => {
      const pooled = (await connect(...args)) as Record<string, Callable> & { release: () => void };
      const query = pooled.query!;
      pooled.query = function (this: unknown, ...a: unknown[]) {
        seen.push(text(a));
        return query.apply(this, a);
      };
      const release = pooled.release.bind(pooled);
      pooled.release = (...r: unknown[]) => {
        pooled.query = query;
        (release as Callable)(...r);
      };
      return pooled;
    };
    restore.push(() => {
      (pool as unknown as Record<string, Callable>).connect = connect;
    });
  }
  return {
    /** The statements seen since the last take (or the start), and forget them. */
    take(): string[] {
      return seen.splice(0, seen.length);
    },
    stop() {
      for (const undo of restore.reverse()) undo();
    },
  };
}
