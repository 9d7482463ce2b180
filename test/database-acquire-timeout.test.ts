import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client';
import { createTestDatabase, engine, type TestDatabase } from './helpers/database';
import { poolGauge } from './helpers/metrics';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

// The pool and its wait are node-postgres's; PGlite has one connection and no pool.
describe.skipIf(engine !== 'postgres')('a request waiting for a pooled connection (DATABASE_ACQUIRE_TIMEOUT)', () => {
  const ACQUIRE_TIMEOUT_MS = 400;
  let base: TestDatabase;
  let small: Database;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    base = await createTestDatabase();
    // One connection, so holding it is an overload.
    small = await openDatabase({ url: base.url, poolSize: 1, acquireTimeoutMs: ACQUIRE_TIMEOUT_MS });
    t = await createTestApp({ database: { database: small, url: base.url, drop: async () => {} } });
    key = await t.apiKey('all');
  });
  afterAll(async () => {
    await t?.close();
    await small?.close();
    await base?.drop();
  });

  const listDemos = () => t.app.inject({ method: 'GET', url: '/v1/demos', headers: bearer(key) });
  const createDemo = () => t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { title: 'While busy' } });
  const count = async () => Number((await small.executeSql('select count(*)::int as n from demos')).rows[0]!.n);

  it('answers 503 unavailable with Retry-After once the wait passes the timeout, and changes nothing', async () => {
    const before = await count();
    let held: pg.PoolClient | undefined = await small.pool!.connect();
    try {
      const started = Date.now();
      const [read, write] = await Promise.all([listDemos(), createDemo()]);
      const waited = Date.now() - started;
      for (const res of [read, write]) {
        expect(res.statusCode, res.body).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json().error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('overloaded') });
      }
      // It gave up after the timeout, not at once and not after minutes.
      expect(waited).toBeGreaterThanOrEqual(ACQUIRE_TIMEOUT_MS - 50);
      expect(waited).toBeLessThan(10_000);
      held.release();
      held = undefined;
      expect(await count()).toBe(before);
    } finally {
      held?.release();
    }
  });

  it('serves the same requests as soon as a connection is free, and a wait shorter than the timeout succeeds', async () => {
    expect((await listDemos()).statusCode).toBe(200);
    const held = await small.pool!.connect();
    // Released well within the timeout: the queued request gets the connection and succeeds.
    setTimeout(() => held.release(), ACQUIRE_TIMEOUT_MS / 4);
    const res = await createDemo();
    expect(res.statusCode, res.body).toBe(201);
  });

  it('shows the pool on /metrics: a connection in use, a query waiting for it, and both back to idle', async () => {
    const gauge = async () => poolGauge((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
    expect(await gauge()).toEqual({ in_use: 0, idle: 1, waiting: 0 });
    const held = await small.pool!.connect();
    const queued = small.executeSql('select 1');
    try {
      expect(await gauge()).toEqual({ in_use: 1, idle: 0, waiting: 1 });
    } finally {
      held.release();
    }
    await queued;
    expect(await gauge()).toEqual({ in_use: 0, idle: 1, waiting: 0 });
  });
});
