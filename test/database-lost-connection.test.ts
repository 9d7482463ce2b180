import type { Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionLoss } from '../src/core/connection-loss';
import { type Database, openDatabase } from '../src/db/client';
import { createTestDatabase, engine, type TestDatabase } from './helpers/database';
import { eventually } from './helpers/webhook-receiver';

/** The socket under a pg client: paused, the client reads nothing the server sends (here, its termination). */
const socketOf = (client: pg.PoolClient) => (client as unknown as { connection: { stream: Socket } }).connection.stream;
const pidOf = async (client: pg.PoolClient) => (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;

// The pool is node-postgres's; PGlite has one connection and no pool.
describe.skipIf(engine !== 'postgres')('a pooled connection lost while checked out (src/db/pg-pool.ts)', () => {
  const ACQUIRE_TIMEOUT_MS = 1_500;
  let base: TestDatabase;
  let small: Database;
  let admin: pg.Client;

  beforeAll(async () => {
    base = await createTestDatabase();
    // One connection: a client the pool loses track of leaves it with none, and the next query times out.
    small = await openDatabase({ url: base.url, poolSize: 1, acquireTimeoutMs: ACQUIRE_TIMEOUT_MS });
    admin = new pg.Client({ connectionString: base.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await small?.close();
    await base?.drop();
  });

  /**
   * Terminates the backend of the pool's idle client with its socket paused, so the client still looks
   * healthy to the pool and is handed out; the socket resumes the moment it is checked out. That is the
   * window of a real outage: a connection cut between checkout and the first statement.
   */
  async function killIdleClientUnnoticed(): Promise<number> {
    const client = await small.pool!.connect();
    const pid = await pidOf(client);
    client.release();
    socketOf(client).pause();
    await admin.query('select pg_terminate_backend($1)', [pid]);
    await eventually(async () => (await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount === 0 || undefined, 5_000, 'the backend to exit');
    small.pool!.once('acquire', (acquired: pg.PoolClient) => socketOf(acquired).resume());
    return pid;
  }

  it('gives the client of a transaction whose BEGIN failed back to the pool, which opens a new connection', async () => {
    const killed = await killIdleClientUnnoticed();
    const failed = await small.db.transaction(async (tx) => tx.execute(sql`select 1`)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeDefined();
    expect(isConnectionLoss(failed)).toBe(true);

    // Drizzle never released that client (BEGIN failed outside its try). Had the pool kept counting it as
    // busy, this would wait the acquire timeout and fail with "timeout exceeded when trying to connect".
    const { rows } = await small.executeSql('select pg_backend_pid() as pid');
    expect(rows[0]!.pid).not.toBe(killed);
    expect(small.pool!.totalCount).toBe(1);
    await small.db.transaction(async (tx) => tx.execute(sql`select 1`));
  });

  it('loses nothing over many such losses in a row', async () => {
    for (let i = 0; i < 5; i++) {
      await killIdleClientUnnoticed();
      await expect(small.db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toSatisfy(isConnectionLoss);
    }
    const { rows } = await small.executeSql('select 41 + 1 as answer');
    expect(rows).toEqual([{ answer: 42 }]);
  });

  it('keeps a healthy client in the pool: a transaction that commits or rolls back returns it for reuse', async () => {
    const first = await small.pool!.connect();
    const pid = await pidOf(first);
    first.release();
    await small.db.transaction(async (tx) => tx.execute(sql`select 1`));
    await expect(
      small.db.transaction(async () => {
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('the caller changed its mind');
    const again = await small.pool!.connect();
    try {
      expect(await pidOf(again)).toBe(pid);
    } finally {
      again.release();
    }
    expect(small.pool!.totalCount).toBe(1);
  });

  it('lets the holder of a client lost mid-transaction release it without an error', async () => {
    const client = await small.pool!.connect();
    const pid = await pidOf(client);
    await client.query('begin');
    await admin.query('select pg_terminate_backend($1)', [pid]);
    await expect(client.query('select 1')).rejects.toSatisfy(isConnectionLoss);
    // The pool took it back when its connection ended; the holder's own release is then a no-op.
    expect(() => client.release()).not.toThrow();
    const { rows } = await small.executeSql('select pg_backend_pid() as pid');
    expect(rows[0]!.pid).not.toBe(pid);
  });
});
