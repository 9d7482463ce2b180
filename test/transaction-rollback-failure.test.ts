import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionLoss } from '../src/core/connection-loss';
import { AppError, conflict } from '../src/core/errors';
import { registerErrorHandler } from '../src/core/http/error-handler';
import type { Executor } from '../src/db/client';
import type { RollbackFailed } from '../src/db/rollback-failure';
import { createTestDatabase, engine, type TestDatabase } from './helpers/database';
import { eventually } from './helpers/webhook-receiver';

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the transaction to fail');
    },
    (error: unknown) => error as Error & Partial<RollbackFailed> & { query?: string },
  );

// pg_terminate_backend from another connection: the one real way a ROLLBACK fails. (PGlite has one backend in
// the process: pg_terminate_backend(pg_backend_pid()) answers false, and close() waits for the transaction.)
describe.skipIf(engine !== 'postgres')('a transaction whose connection is terminated before its ROLLBACK (src/db/rollback-failure.ts)', () => {
  let base: TestDatabase;
  let admin: pg.Client;

  beforeAll(async () => {
    base = await createTestDatabase();
    admin = new pg.Client({ connectionString: base.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await base?.drop();
  });

  /** Terminates the backend `tx` runs on and waits until it has exited: every statement on it fails from then on. */
  async function terminate(tx: Executor) {
    const { rows } = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] };
    const pid = rows[0]!.pid;
    await admin.query('select pg_terminate_backend($1)', [pid]);
    await eventually(async () => (await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount === 0 || undefined, 10_000, 'the backend to exit');
  }

  it("rejects with the body's own error, the failed ROLLBACK attached as rollbackError", async () => {
    const failed = await rejection(
      base.database.db.transaction(async (tx) => {
        await terminate(tx);
        throw conflict('The name is taken');
      }),
    );
    // Before: DrizzleQueryError "Failed query: rollback", and the request answered 503 instead of 409.
    expect(failed).toBeInstanceOf(AppError);
    expect(failed.message).toBe('The name is taken');
    expect(failed.rollbackError).toBeDefined();
    expect((failed.rollbackError as { query?: string }).query).toBe('rollback');
    expect(isConnectionLoss(failed.rollbackError)).toBe(true);
    // The pool took the dead client back and opened another.
    expect((await base.database.executeSql('select 41 + 1 as answer')).rows).toEqual([{ answer: 42 }]);
  });

  it("rejects with the statement that met the termination, not the ROLLBACK's error", async () => {
    const failed = await rejection(
      base.database.db.transaction(async (tx) => {
        await terminate(tx);
        await tx.execute(sql`select 'after the termination'`);
      }),
    );
    expect(failed.query).toBe("select 'after the termination'");
    expect(isConnectionLoss(failed)).toBe(true);
    expect(failed.rollbackError).toBeDefined();
  });

  it('does the same for a savepoint whose ROLLBACK TO SAVEPOINT fails', async () => {
    const failed = await rejection(
      base.database.db.transaction(async (tx) => {
        await tx.transaction(async (savepoint) => {
          await terminate(savepoint);
          throw new Error('the savepoint body failed');
        });
      }),
    );
    expect(failed.message).toBe('the savepoint body failed');
    expect((failed.rollbackError as { query?: string }).query).toBe('rollback to savepoint sp1');
  });

  it('leaves the error handler answering 503 for the terminated connection, and the body its own 409', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/statement', () =>
      base.database.db.transaction(async (tx) => {
        await terminate(tx);
        await tx.execute(sql`select 1`);
      }),
    );
    app.get('/own', () =>
      base.database.db.transaction(async (tx) => {
        await terminate(tx);
        throw conflict('The name is taken');
      }),
    );
    try {
      const lost = await app.inject({ url: '/statement' });
      expect(lost.statusCode).toBe(503);
      expect(lost.headers['retry-after']).toBe('5');
      expect(lost.json().error.code).toBe('unavailable');
      const own = await app.inject({ url: '/own' });
      expect(own.statusCode).toBe(409);
      expect(own.json().error).toMatchObject({ code: 'conflict', message: 'The name is taken' });
    } finally {
      await app.close();
    }
  });
});

describe('a transaction that fails while its database is closing (src/db/rollback-failure.ts)', () => {
  it("rejects with the body's error and closes once the transaction has ended", async () => {
    const base = await createTestDatabase();
    let closing: Promise<unknown> | undefined;
    try {
      const failed = await rejection(
        base.database.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          closing = base.database.close();
          await new Promise((resolve) => setTimeout(resolve, 50));
          throw new Error('the real cause');
        }),
      );
      expect(failed.message).toBe('the real cause');
      await closing;
    } finally {
      await base.drop();
    }
  });
});
