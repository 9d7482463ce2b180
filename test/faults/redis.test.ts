import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../helpers/database';
import { callOver, createKeyOver, type RemoteSession, signUpOver } from '../helpers/remote-api';
import { createPostgresDatabase, freePort, type PostgresDatabase, RedisServer, ServiceProcess } from '../helpers/service-process';

// Issue 16, item 2 (Redis): two API processes sharing a Redis that is killed under load and started again.
// What the service promises (docs/operations.md, "Several processes and failures"): no request fails because
// Redis is gone; rate limits fall back to a budget per process; caches stop serving entries, so that a
// revocation or an edit made through one process is still seen by the other at once; once Redis is back,
// budgets are shared and caches in use again within about a second.
if (!TEST_DATABASE_URL) {
  console.warn('\n*** SKIPPED: the Redis fault test needs PostgreSQL: run it with TEST_DATABASE_URL=postgres://... ***\n');
}

const RATE_LIMIT = 60;
const GET_ONE = '/v1/demos?per_page=1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!TEST_DATABASE_URL)('Redis stopped and started again under two API processes', () => {
  let db: PostgresDatabase;
  let redis: RedisServer;
  let apiA: ServiceProcess;
  let apiB: ServiceProcess;
  let admin: RemoteSession;
  let key: string;

  beforeAll(async () => {
    [db, redis] = await Promise.all([createPostgresDatabase(), new RedisServer().start()]);
    const env = { DATABASE_URL: db.url, REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) };
    apiA = ServiceProcess.serve(env);
    apiB = ServiceProcess.serve(env);
    await apiA.start(120_000);
    await apiB.start(120_000);
    admin = await signUpOver(apiA.url);
    key = (await createKeyOver(apiA.url, admin)).key;
  });

  afterAll(async () => {
    await Promise.all([apiA?.kill(), apiB?.kill()]);
    await redis?.stop();
    await db?.drop();
  });

  /** A published demo with a share link: `viewOn(api)` is its player payload as that process serves it. */
  async function sharedDemo(title: string) {
    const id = (await callOver(apiA.url, 'POST', '/v1/demos', { key, body: { title } })).body.data.id as string;
    expect((await callOver(apiA.url, 'POST', `/v1/demos/${id}/steps`, { key, body: { title: 'One' } })).status).toBe(201);
    expect((await callOver(apiA.url, 'POST', `/v1/demos/${id}/publish`, { key })).status).toBe(200);
    const share = await callOver(apiA.url, 'POST', `/v1/demos/${id}/shares`, { key, body: {} });
    const token = (share.body.data.url as string).split('/s/')[1]!;
    return { id, viewOn: (api: ServiceProcess) => callOver(api.url, 'GET', `/v1/viewer/${token}/demo`) };
  }

  /** Edits the title through A and publishes it; the viewer on B must show it on the next request. */
  async function editThroughA(id: string, title: string) {
    expect((await callOver(apiA.url, 'PATCH', `/v1/demos/${id}`, { key, body: { title } })).status).toBe(200);
    expect((await callOver(apiA.url, 'POST', `/v1/demos/${id}/publish`, { key })).status).toBe(200);
  }

  /** Revokes a key through A after B has resolved (and, when it may, cached) it; ms until B refuses it. */
  async function revocationDelay(): Promise<number> {
    const revoked = await createKeyOver(apiA.url, admin, 'to revoke');
    for (let i = 0; i < 3; i++) expect((await callOver(apiB.url, 'GET', GET_ONE, { key: revoked.key })).status).toBe(200);
    expect((await callOver(apiA.url, 'DELETE', `/v1/api-keys/${revoked.id}`, { session: admin })).status).toBe(204);
    const start = performance.now();
    let status = 200;
    while (status === 200 && performance.now() - start < 5_000) {
      status = (await callOver(apiB.url, 'GET', GET_ONE, { key: revoked.key })).status;
    }
    expect(status).toBe(401);
    return performance.now() - start;
  }

  /**
   * Ms until the two processes share `probe`'s budget again: B's count follows A's. In-process budgets,
   * probed alternately, stay level instead.
   */
  async function untilShared(probe: string): Promise<number> {
    const start = performance.now();
    while (performance.now() - start < 15_000) {
      const a = await callOver(apiA.url, 'GET', GET_ONE, { key: probe });
      const b = await callOver(apiB.url, 'GET', GET_ONE, { key: probe });
      expect([a.status, b.status]).toEqual([200, 200]);
      if (Number(b.headers.get('x-ratelimit-remaining')) === Number(a.headers.get('x-ratelimit-remaining')) - 1) {
        return performance.now() - start;
      }
      await sleep(100);
    }
    throw new Error('the budgets were not shared again within 15 s');
  }

  it('with Redis up, the two processes share one budget per key', async () => {
    const { key: probe } = await createKeyOver(apiA.url, admin, 'probe');
    const a = await callOver(apiA.url, 'GET', GET_ONE, { key: probe });
    const b = await callOver(apiB.url, 'GET', GET_ONE, { key: probe });
    expect(a.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT - 1));
    expect(b.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT - 2));
  });

  it('Redis killed under load: no request fails, writes included, and neither process logs more than one line about it', async () => {
    const keys = await Promise.all(Array.from({ length: 6 }, (_, i) => createKeyOver(apiA.url, admin, `load ${i}`)));
    const { viewOn } = await sharedDemo('Under load');
    const outcomes: Array<{ status: number; ms: number; redisUp: boolean }> = [];
    let redisUp = true;
    let running = true;
    const load = (async () => {
      for (let i = 0; running; i++) {
        const api = i % 2 === 0 ? apiA : apiB;
        const k = keys[i % keys.length]!.key;
        const started = performance.now();
        const up = redisUp;
        let status: number;
        try {
          const kind = i % 3;
          if (kind === 0) status = (await callOver(api.url, 'GET', GET_ONE, { key: k })).status;
          else if (kind === 1) status = (await callOver(api.url, 'POST', '/v1/demos', { key: k, body: { title: `Load ${i}` } })).status;
          else status = (await viewOn(api)).status;
        } catch {
          status = 0;
        }
        outcomes.push({ status, ms: performance.now() - started, redisUp: up });
        // Paced: unpaced, a fast machine spends a key's per-process budget (the fallback) within seconds.
        await sleep(40);
      }
    })();
    await sleep(1_500);
    const marks = [apiA.output.length, apiB.output.length];
    await redis.kill();
    redisUp = false;
    await sleep(4_000);
    running = false;
    await load;

    const during = outcomes.filter((o) => !o.redisUp);
    expect(during.length).toBeGreaterThan(10);
    const failed = outcomes.filter((o) => o.status === 0 || o.status >= 500 || o.status === 429);
    expect(failed, `failed requests: ${JSON.stringify(failed)}`).toEqual([]);
    const p = (list: typeof outcomes, q: number) => list.map((o) => o.ms).sort((x, y) => x - y)[Math.floor((list.length - 1) * q)]!;
    console.info(
      `Redis killed under load: ${outcomes.length} requests, ${during.length} without Redis, none failed; ` +
        `median ${p(outcomes.filter((o) => o.redisUp), 0.5).toFixed(0)} ms with Redis, ${p(during, 0.5).toFixed(0)} ms without ` +
        `(p95 ${p(during, 0.95).toFixed(0)} ms)`,
    );
    // No queueing behind a dead connection: a request without Redis is not held for a reconnect.
    expect(p(during, 0.5)).toBeLessThan(1_000);
    for (const [i, api] of [apiA, apiB].entries()) {
      const said = api.output.slice(marks[i]);
      expect(said.match(/Redis is unreachable/g) ?? [], api.tail()).toHaveLength(1);
      expect(said).not.toContain('Unhandled error event');
      expect(api.running).toBe(true);
    }
  });

  it('without Redis, each process keeps its own budget: two processes allow twice the limit, then 429', async () => {
    const { key: limited } = await createKeyOver(apiA.url, admin, 'limited while down');
    const statuses: number[] = [];
    for (let i = 0; i < 2 * RATE_LIMIT + 10; i++) {
      statuses.push((await callOver((i % 2 === 0 ? apiA : apiB).url, 'GET', GET_ONE, { key: limited })).status);
    }
    expect(statuses.slice(0, 2 * RATE_LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(2 * RATE_LIMIT).every((s) => s === 429)).toBe(true);
  });

  it('without Redis, a key revoked through one process is refused by the other at once, and edits are served fresh', async () => {
    const delay = await revocationDelay();
    console.info(`without Redis: revocation refused by the other process after ${delay.toFixed(0)} ms`);
    expect(delay).toBeLessThan(2_000);

    const { id, viewOn } = await sharedDemo('Before, Redis down');
    expect((await viewOn(apiB)).body.data.title).toBe('Before, Redis down');
    await editThroughA(id, 'After, Redis down');
    expect((await viewOn(apiB)).body.data.title).toBe('After, Redis down');
  });

  it('Redis back on the same port: budgets are shared again within about a second, and invalidation reaches the other process', async () => {
    const { key: probe } = await createKeyOver(apiA.url, admin, 'recovery probe');
    await redis.start();
    const recovery = await untilShared(probe);
    console.info(`Redis restarted: budgets shared again after ${recovery.toFixed(0)} ms`);
    expect(recovery).toBeLessThan(5_000);

    // Caches are in use again, and kept right by the bus: B caches the payload, A's edit drops it.
    const { id, viewOn } = await sharedDemo('Before, Redis back');
    for (let i = 0; i < 2; i++) expect((await viewOn(apiB)).body.data.title).toBe('Before, Redis back');
    await editThroughA(id, 'After, Redis back');
    expect((await viewOn(apiB)).body.data.title).toBe('After, Redis back');
    const delay = await revocationDelay();
    console.info(`Redis back: revocation refused by the other process after ${delay.toFixed(0)} ms`);
    expect(delay).toBeLessThan(2_000);
  });

  it('Redis hung behind open connections (SIGSTOP): requests wait a second at most, then fall back; answering again, it is used again', async () => {
    const keys = await Promise.all([0, 1].map((i) => createKeyOver(apiA.url, admin, `hang ${i}`)));
    redis.pause();
    const pausedAt = performance.now();
    const timings: Array<{ at: number; ms: number; status: number }> = [];
    try {
      for (let i = 0; performance.now() - pausedAt < 4_000; i++) {
        const started = performance.now();
        const { status } = await callOver((i % 2 === 0 ? apiA : apiB).url, 'GET', GET_ONE, { key: keys[i % 2]!.key });
        timings.push({ at: started - pausedAt, ms: performance.now() - started, status });
        // Paced, so that the keys stay within their per-process budgets (the fallback) on a fast machine.
        await sleep(40);
      }
      expect(timings.filter((t) => t.status !== 200)).toEqual([]);
      const slowest = Math.max(...timings.map((t) => t.ms));
      const settled = timings.filter((t) => t.at > 2_500).map((t) => t.ms);
      console.info(
        `Redis hung: ${timings.length} requests, none failed, slowest ${slowest.toFixed(0)} ms; ` +
          `after 2.5 s the slowest took ${Math.max(...settled).toFixed(0)} ms`,
      );
      // One command timeout (1 s) and one heartbeat (1 s) at most, then no waiting on Redis at all.
      expect(slowest).toBeLessThan(2_500);
      expect(settled.length).toBeGreaterThan(3);
      expect(Math.max(...settled)).toBeLessThan(500);
      // The bus's subscriber was dropped too: caches are bypassed, a revocation is seen at once.
      expect(await revocationDelay()).toBeLessThan(2_000);
    } finally {
      redis.resume();
    }
    const { key: probe } = await createKeyOver(apiA.url, admin, 'hang recovery probe');
    const recovery = await untilShared(probe);
    console.info(`Redis answering again: budgets shared after ${recovery.toFixed(0)} ms`);
    expect(recovery).toBeLessThan(5_000);
  });

  it('a process started while Redis is unreachable exits with a clear message instead of running half-configured', async () => {
    const lost = ServiceProcess.serve({ DATABASE_URL: db.url, REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    await expect(lost.start(120_000)).rejects.toThrow(/exited \(1\)[\s\S]*Redis at REDIS_URL is not reachable/);
  });
});
