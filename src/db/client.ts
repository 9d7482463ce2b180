// The one database handle of the service: PGlite in a data directory or a PostgreSQL pool, behind the same Drizzle API.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { createPgPool } from './pg-pool';
import { cacheStatements } from './pglite-statements';
import { keepBodyErrors } from './rollback-failure';

// No relational schema: queries name their tables, so this module depends on no domain's tables.
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything a repository can run a query on: the database or an open transaction. */
export type Executor = Db | Tx;

export interface SqlResult {
  rows: Record<string, unknown>[];
}

/** The one handle on the database, whichever engine is behind it. */
export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** Raw SQL for the job queue and the few statements Drizzle does not express. */
  executeSql(text: string, values?: unknown[]): Promise<SqlResult>;
  ping(): Promise<void>;
  /**
   * Calls `handler` on each NOTIFY on `channel`. A NOTIFY sent inside a transaction arrives only if and
   * when it commits, which makes it a commit hook that works across processes. `handler('')` also runs
   * after a lost connection comes back, since notifications sent meanwhile are gone.
   */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  migrate(): Promise<void>;
  /**
   * Runs `fn` while holding the start-up lock that every process sharing the database takes (PostgreSQL):
   * installing the job queue's schema from several processes at once races in the catalog otherwise.
   */
  serialised<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PGlite only: a dump (tar) of the data directory: test templates clone it, `demoshare backup` archives it. */
  dump?(): Promise<Blob>;
  /** The connection string, when the engine is a PostgreSQL server. */
  readonly url?: string;
  readonly pool?: pg.Pool;
}

const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url));
// Any constant shared by every process: serialises migrations when several start at once.
const MIGRATION_LOCK = 7_402_118_934;

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; unset means embedded PGlite. */
  url?: string;
  /** Where PGlite keeps its files; unset means in memory (tests). */
  dataDir?: string;
  poolSize?: number;
  /**
   * PostgreSQL only: how long a query waits for a pooled connection (all busy, or the server unreachable)
   * before it fails as a lost connection (503 `unavailable`, core/connection-loss.ts). Unset: forever.
   */
  acquireTimeoutMs?: number;
  /**
   * PGlite only: start from this dump of a data directory instead of an empty cluster (test templates, and
   * `demoshare restore` into a fresh `dataDir`).
   */
  loadDataDir?: Blob;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.url
    ? openPostgres(options.url, options.poolSize ?? 10, options.acquireTimeoutMs)
    : openPglite(options.dataDir, options.loadDataDir);
}

/**
 * PGlite's start parameters, with a small WAL. A single-user backend has no checkpointer, so PostgreSQL's
 * own triggers (max_wal_size, checkpoint_timeout) never fire: the WAL grows with every write until a
 * checkpoint, which only the maintenance (db/embedded-maintenance.ts) and a clean shutdown run. After one,
 * PostgreSQL keeps up to max_wal_size of old segments for reuse; at the default 1 GB that is 1 GB of the
 * data directory, and of every backup, holding nothing (measured: bench/embedded-maintenance.ts).
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'max_wal_size=128MB', '-c', 'min_wal_size=32MB'];

const BYTEA = 17;

/**
 * bytea to and from PGlite's text form with Buffer's native hex codec. PGlite's own goes byte by byte in
 * JavaScript (`Array.from(bytes).map(...)`, `parseInt` per byte), on the event loop: 1.2 s to write a 2.4 MB
 * snapshot and as long to read it, holding every request (bench/event-loop-isolation.ts); these take 40-90
 * ms. Reads come back as Buffers, as they do from node-postgres.
 */
const PGLITE_BYTEA = {
  serializers: { [BYTEA]: (x: Uint8Array) => `\\x${Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('hex')}` },
  parsers: { [BYTEA]: (x: string) => Buffer.from(x.slice(2), 'hex') },
};

async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  let lock: DataDirLock | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    lock = acquireDataDirLock(dataDir);
  }
  let client: PGlite;
  try {
    const options = { loadDataDir, startParams: PGLITE_START_PARAMS, ...PGLITE_BYTEA };
    client = dataDir ? new PGlite(path.join(dataDir, 'pgdata'), options) : new PGlite(options);
    await client.waitReady;
    cacheStatements(client);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = keepBodyErrors(drizzlePglite({ client }) as unknown as Db);
  return {
    kind: 'pglite',
    db,
    async executeSql(text, values) {
      // PGlite's extended protocol takes one statement; parameterless scripts go through exec.
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
      }
      const result = await client.query(text, values);
      return { rows: result.rows as Record<string, unknown>[] };
    },
    async ping() {
      await client.query('select 1');
    },
    async listen(channel, handler) {
      const stop = await client.listen(channel, handler);
      return async () => {
        if (!client.closed) await stop();
      };
    },
    async migrate() {
      await migratePglite(drizzlePglite({ client }), { migrationsFolder: MIGRATIONS });
    },
    // One process holds the data directory: nothing to serialise against.
    serialised: (fn) => fn(),
    async dump() {
      return client.dumpDataDir('none');
    },
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

async function openPostgres(url: string, poolSize: number, acquireTimeoutMs?: number): Promise<Database> {
  // pg-pool's connectionTimeoutMillis bounds both the wait for a free client and the connect itself: an
  // overloaded process answers 503 with Retry-After instead of queuing requests for minutes.
  const pool = createPgPool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: acquireTimeoutMs ?? 0,
  });
  const db = keepBodyErrors(drizzlePg({ client: pool }) as unknown as Db);
  const listener = createListener(url);
  // A session lock on a client of its own: other processes wait for it, this process's queries go on.
  async function serialised<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      return await fn(client);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      client.release();
    }
  }
  return {
    kind: 'postgres',
    db,
    url,
    pool,
    async executeSql(text, values) {
      const result = await pool.query(text, values as unknown[] | undefined);
      const last = Array.isArray(result) ? result.at(-1) : result;
      return { rows: (last?.rows ?? []) as Record<string, unknown>[] };
    },
    async ping() {
      await pool.query('select 1');
    },
    listen: (channel, handler) => listener.listen(channel, handler),
    async migrate() {
      await serialised(async (client) => {
        await migratePg(drizzlePg({ client }), { migrationsFolder: MIGRATIONS });
      });
    },
    serialised: (fn) => serialised(() => fn()),
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}

/**
 * The process's one LISTEN connection, shared by every channel (the webhooks' commit hook, the cache bus):
 * opened on the first listener, closed after the last, reconnecting after errors. After a reconnect every
 * handler gets '', since notifications sent meanwhile are gone.
 */
function createListener(url: string) {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  /** Channels the current connection listens on. */
  let listening = new Set<string>();
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const quote = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

  /**
   * After a lost connection: tries again after 1 s, then backing off to every 5 s, for as long as the database
   * stays away (an outage outlasts one try), and tells every handler once it is back.
   */
  const reconnect = (delayMs = 1_000) => {
    if (closed || handlers.size === 0 || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      ensure().then(
        () => {
          for (const set of handlers.values()) for (const handler of set) handler('');
        },
        () => reconnect(Math.min(delayMs * 2, 5_000)),
      );
    }, delayMs);
    retry.unref();
  };
  // A terminated backend shows as 'error' (57P01) or only as 'end' (the socket closed): either way, reconnect.
  const lost = (which: pg.Client) => {
    if (client !== which && client) return;
    client = undefined;
    which.end().catch(() => {});
    reconnect();
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (n) => {
      for (const handler of handlers.get(n.channel) ?? []) handler(n.payload ?? '');
    });
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    await next.connect();
    const channels = new Set<string>();
    for (const channel of handlers.keys()) {
      await next.query(`LISTEN ${quote(channel)}`);
      channels.add(channel);
    }
    if (closed || handlers.size === 0) {
      await next.end();
    } else {
      client = next;
      listening = channels;
    }
  };
  const ensure = () => {
    if (client) return Promise.resolve();
    connecting ??= connect().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  return {
    async listen(channel: string, handler: (payload: string) => void) {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(handler);
      await ensure();
      if (client && !listening.has(channel)) {
        listening.add(channel);
        await client.query(`LISTEN ${quote(channel)}`);
      }
      return async () => {
        set.delete(handler);
        if (set.size > 0 || handlers.get(channel) !== set) return;
        handlers.delete(channel);
        listening.delete(channel);
        const current = client;
        if (handlers.size === 0) {
          client = undefined;
          await current?.end().catch(() => {});
        } else {
          await current?.query(`UNLISTEN ${quote(channel)}`).catch(() => {});
        }
      };
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      handlers.clear();
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
