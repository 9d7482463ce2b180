import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

/** Keeps the event loop busy in slices of `sliceMs` for `totalMs`, as a process past its capacity does. */
async function overload(totalMs: number, sliceMs: number) {
  const end = Date.now() + totalMs;
  while (Date.now() < end) {
    const sliceEnd = Date.now() + sliceMs;
    while (Date.now() < sliceEnd) {
      // busy: nothing else runs
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('shedding load past MAX_EVENT_LOOP_DELAY', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { MAX_EVENT_LOOP_DELAY: 50 } });
    key = await t.apiKey('all');
  });
  afterAll(async () => {
    await t?.close();
  });

  const createDemo = () => t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { title: 'Under load' } });
  const count = async () => Number((await t.db.database.executeSql('select count(*)::int as n from demos')).rows[0]!.n);

  it('answers 503 unavailable with Retry-After at once while the loop lags, keeps /healthz and /metrics, and recovers', async () => {
    expect((await createDemo()).statusCode).toBe(201);
    const before = await count();
    // Slices of 200 ms for 2.5 s: every sample of the last second is far above 50 ms.
    await overload(2_500, 200);

    const started = Date.now();
    const refused = await createDemo();
    expect(Date.now() - started).toBeLessThan(500);
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json().error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('overloaded'), request_id: expect.any(String) });
    expect(refused.headers['x-request-id']).toBe(refused.json().error.request_id);
    // The viewer's ingestion and sign-in are refused the same way: shedding happens before routing.
    expect((await t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'a@example.com', password: 'x' } })).statusCode).toBe(503);
    // The token endpoint says it in RFC 6749's words, as it does for a database out of reach.
    const token = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=refresh_token&refresh_token=x&client_id=y',
    });
    expect(token.statusCode).toBe(503);
    expect(token.json()).toMatchObject({ error: 'temporarily_unavailable' });
    // A load balancer takes the process out of rotation; an orchestrator does not restart it.
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.json()).toEqual({ status: 'unavailable', database: t.db.database.kind });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    expect(await count()).toBe(before);

    // Once a second has passed without lag, requests are served again.
    await expect.poll(async () => (await createDemo()).statusCode, { timeout: 5_000, interval: 250 }).toBe(201);
    expect(await count()).toBe(before + 1);
  });

  it('is off with MAX_EVENT_LOOP_DELAY=0s: a lagging process queues instead', async () => {
    const off = await createTestApp({ config: { MAX_EVENT_LOOP_DELAY: 0 } });
    try {
      const offKey = await off.apiKey('all');
      await overload(1_500, 200);
      const res = await off.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(offKey), payload: { title: 'Queued' } });
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      await off.close();
    }
  });
});
