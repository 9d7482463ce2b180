import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config';
import { manualClock } from '../src/core/clock';
import { WARM_UP_MS } from '../src/core/http/overload';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

/** Keeps the event loop busy in slices of `sliceMs` for `totalMs`, as a process past its capacity does. */
async function overload(totalMs: number, sliceMs: number) {
  const end = Date.now() + totalMs;
  while (Date.now() < end) {
    busy(sliceMs);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** One stall: the loop does not turn at all for `ms`. */
function busy(ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy: nothing else runs
  }
}

// 250 ms slices for 5.5 s: every sample is far above 100 ms, and the third in a row falls within the load
// whatever the phase of the guard's one-second timer (and the 250 ms it runs late).
const SUSTAINED_MS = 5_500;
const SLICE_MS = 250;

describe('shedding load past MAX_EVENT_LOOP_DELAY', () => {
  let t: TestApp;
  let key: string;
  // The warm-up is counted on the app's clock: it ends when the test says, not when a loaded machine has
  // got through the set-up.
  const clock = manualClock();
  let warn: { mock: { calls: unknown[][] }; mockRestore(): void };

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { MAX_EVENT_LOOP_DELAY: 100 } });
    // The guard's log lines: what an operator reads when shedding starts and stops.
    warn = vi.spyOn(t.app.log, 'warn');
    key = await t.apiKey('all');
  });
  afterAll(async () => {
    warn?.mockRestore();
    await t?.close();
  });

  const createDemo = () => t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { title: 'Under load' } });
  const count = async () => Number((await t.db.database.executeSql('select count(*)::int as n from demos')).rows[0]!.n);
  const logged = (re: RegExp) => warn.mock.calls.map((call) => String(call[1] ?? call[0])).filter((line) => re.test(line));
  /** Requests every 100 ms for `ms`: their statuses. */
  async function keepAsking(ms: number): Promise<number[]> {
    const statuses: number[] = [];
    for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) statuses.push((await createDemo()).statusCode);
    return statuses;
  }

  it('refuses nothing while the server warms up, however long the loop lags', async () => {
    // Before: the first second of lag after start was enough, and a server's first requests are its slowest.
    await overload(SUSTAINED_MS, SLICE_MS);
    expect((await createDemo()).statusCode).toBe(201);
    expect(await keepAsking(1_500)).not.toContain(503);
    expect(logged(/load shedding/)).toEqual([]);
  });

  it('refuses nothing for one stall, even one in which the loop does not turn for seconds', async () => {
    clock.advance(WARM_UP_MS);
    // Before: a second with no turn of the loop counted as an endless delay, and the next requests got 503.
    busy(2_500);
    await sleep(20);
    expect(await keepAsking(2_000)).not.toContain(503);
    busy(1_200);
    expect(await keepAsking(1_500)).not.toContain(503);
    expect(logged(/load shedding/)).toEqual([]);
  });

  it('answers 503 unavailable with Retry-After at once once the loop lags for 3 s, keeps /healthz and /metrics, logs it and recovers', async () => {
    expect((await createDemo()).statusCode).toBe(201);
    const before = await count();
    await overload(SUSTAINED_MS, SLICE_MS);

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
    // The refusals are counted where docs/operations.md says to watch them.
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(Number(/^demoshare_http_requests_total\{method="POST",route="\/v1\/demos",status="503"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(before);

    // Once a second has passed without lag, requests are served again.
    await expect.poll(async () => (await createDemo()).statusCode, { timeout: 5_000, interval: 250 }).toBe(201);
    expect(await count()).toBe(before + 1);
    // One line when it started and one when it stopped, saying what was measured; no "dependency unreachable".
    expect(logged(/load shedding started/)).toEqual([
      expect.stringMatching(/median delay was above MAX_EVENT_LOOP_DELAY \(100 ms\) for 3 s in a row \(\d+, \d+, \d+ ms\)/),
    ]);
    expect(logged(/load shedding stopped/)).toEqual([
      expect.stringMatching(/fell to \d+ ms \(MAX_EVENT_LOOP_DELAY 100 ms\) after \d+\.\d s of shedding, [1-9]\d* requests refused with 503/),
    ]);
    expect(logged(/unreachable/)).toEqual([]);
  });

  it('is off by default: a lagging process queues instead', async () => {
    // Before: 100 ms unless set, and every test helper turned it off.
    expect(loadConfig({}).MAX_EVENT_LOOP_DELAY).toBe(0);
    const off = await createTestApp();
    try {
      const offKey = await off.apiKey('all');
      await overload(1_500, SLICE_MS);
      const res = await off.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(offKey), payload: { title: 'Queued' } });
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      await off.close();
    }
  });
});
