// The service's PostgreSQL pools: pg.Pool, hardened against the ways a lost connection can cost it a client.
import pg from 'pg';
import { isConnectionLoss } from '../core/connection-loss';

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * A pg.Pool that takes a client back by itself when the client's connection ends while it is checked out.
 *
 * Why: Drizzle's `transaction()` (drizzle-orm 0.45, still so upstream: drizzle-team/drizzle-orm#6241) sends
 * BEGIN before the `try` whose `finally` releases its client. When the connection is lost between checkout
 * and BEGIN (a terminated backend, a database restart, a cut network), that client is never released: the
 * pool counts it as busy for the life of the process. After DATABASE_POOL_SIZE such losses every request
 * waits for a client that never comes, long after the database is back. Seen in the database-outage fault
 * test: the worker's pool stayed exhausted after a 6 s outage and no webhook went out.
 *
 * A client whose connection ended is useless to its holder anyway (its next statement fails), so releasing it
 * with an error, which makes the pool destroy it and open another, takes nothing from anyone. The holder's own
 * `release()` after that is a no-op, not pg-pool's double-release error.
 */
class SelfReleasingPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    // pg-pool's own `query` goes through the callback form and always releases; only the promise form hands a
    // client to code outside the pool.
    if (callback) {
      super.connect(callback as Parameters<pg.Pool['connect']>[0]);
      return undefined;
    }
    return super.connect().then(releaseWhenLost);
  }
}

function releaseWhenLost(client: pg.PoolClient): pg.PoolClient {
  // pg-pool sets a release function per checkout (it throws when called twice: a bug of the holder's).
  const release = client.release;
  let takenBack = false;
  // A statement that failed for a lost connection (57P01 arrives before the socket's end): the client must not
  // go back to the idle list, where the next checkout would get a dead connection.
  let lostError: Error | undefined;
  const lost = () => {
    takenBack = true;
    release(new Error('The database connection ended while the client was checked out'));
  };
  client.once('end', lost);
  client.query = ((...args: Parameters<pg.PoolClient['query']>) => {
    const result = pg.Client.prototype.query.apply(client, args) as unknown;
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (isConnectionLoss(error)) lostError = error as Error;
      });
    }
    return result;
  }) as pg.PoolClient['query'];
  client.release = (err?: Error | boolean) => {
    if (takenBack) return;
    client.removeListener('end', lost);
    // The prototype's query again: the next checkout observes its own statements.
    delete (client as { query?: unknown }).query;
    release(err ?? lostError);
  };
  return client;
}

/**
 * A pool that survives its connections being cut: no process crash on a client's 'error' (idle or checked
 * out), and no client lost for good when its connection ends while checked out.
 *
 * @example
 * ```ts
 * const pool = createPgPool({ connectionString: 'postgres://localhost/app', max: 10 });
 * const db = drizzle({ client: pool });
 * ```
 */
export function createPgPool(config: pg.PoolConfig): pg.Pool {
  const pool = new SelfReleasingPool(config);
  // An idle client that errors (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor one checked out (a transaction between statements): pg-pool listens only on idle clients, and an
  // unheard 'error' (57P01 from pg_terminate_backend) kills the process. Its statement fails instead (503,
  // core/connection-loss.ts), and the client goes back to the pool to be destroyed (releaseWhenLost).
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}
