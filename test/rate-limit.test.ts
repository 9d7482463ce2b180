import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

const MEMBERS = '/v1/team/members';
// TEST_REDIS_URL, not REDIS_URL: the suite must not switch the app's own configuration by accident.
const REDIS_URL = process.env.TEST_REDIS_URL || undefined;

type Res = { statusCode: number; headers: Record<string, unknown> };

function limitHeaders(res: Res) {
  return {
    limit: Number(res.headers['x-ratelimit-limit']),
    remaining: Number(res.headers['x-ratelimit-remaining']),
    reset: Number(res.headers['x-ratelimit-reset']),
  };
}

function expectLimitHeaders(res: Res, limit: number) {
  const h = limitHeaders(res);
  expect(h.limit, `X-RateLimit-Limit on ${res.statusCode}`).toBe(limit);
  expect(Number.isInteger(h.remaining)).toBe(true);
  expect(h.remaining).toBeGreaterThanOrEqual(0);
  expect(h.remaining).toBeLessThanOrEqual(limit);
  // Unix seconds, within the one-minute window (not milliseconds, not seconds-from-now).
  const now = Date.now() / 1000;
  expect(h.reset).toBeGreaterThanOrEqual(Math.floor(now));
  expect(h.reset).toBeLessThanOrEqual(Math.ceil(now) + 61);
}

describe('rate limits', () => {
  let t: TestApp;
  const PER_MINUTE = 5;
  const PUBLIC_PER_MINUTE = 1_000;

  beforeAll(async () => {
    t = await createTestApp({
      config: { RATE_LIMIT_PER_MINUTE: PER_MINUTE, RATE_LIMIT_PUBLIC_PER_MINUTE: PUBLIC_PER_MINUTE },
    });
  });
  afterAll(() => t?.close());

  it('counts down per credential and answers 429 rate_limited with Retry-After once spent', async () => {
    const key = await t.apiKey('all');
    const seen: number[] = [];
    for (let i = 0; i < PER_MINUTE; i++) {
      const res = await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      expectLimitHeaders(res, PER_MINUTE);
      seen.push(limitHeaders(res).remaining);
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    const limited = await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatchObject({ code: 'rate_limited', request_id: limited.headers['x-request-id'] });
    expectLimitHeaders(limited, PER_MINUTE);
    expect(limitHeaders(limited).remaining).toBe(0);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // A limited request does nothing, even a write.
    const write = await t.app.inject({
      method: 'POST',
      url: MEMBERS,
      headers: bearer(key),
      payload: { email: 'limited@example.com', role: 'viewer' },
    });
    expect(write.statusCode).toBe(429);

    // Another credential (another key, even of the same member) has its own budget.
    const other = await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(await t.apiKey('all')) });
    expect(other.statusCode).toBe(200);
    expect(limitHeaders(other).remaining).toBe(PER_MINUTE - 1);
  });

  it('puts the headers on every /v1 response, whatever its status', async () => {
    const admin = await t.signUp();
    const key = await t.apiKey(['demos:read'], admin);
    const responses: Array<[Res, number]> = [
      [await t.app.inject({ method: 'GET', url: MEMBERS }), PUBLIC_PER_MINUTE], // 401
      [await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(`dsk_${'a'.repeat(49)}`) }), PUBLIC_PER_MINUTE],
      [await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) }), PER_MINUTE], // 403
      [await t.app.inject({ method: 'GET', url: '/v1/nothing-here', headers: bearer(key) }), PUBLIC_PER_MINUTE], // 404
      [await t.app.inject({ method: 'PUT', url: MEMBERS, headers: bearer(key) }), PUBLIC_PER_MINUTE], // 405
      [await t.app.inject({ method: 'GET', url: '/v1/openapi.json' }), PUBLIC_PER_MINUTE], // 200 public
      [await admin.inject({ method: 'GET', url: `${MEMBERS}?per_page=0` }), PER_MINUTE], // 400
      [
        await admin.inject({
          method: 'POST',
          url: MEMBERS,
          headers: { 'content-type': 'text/plain' },
          payload: 'hello',
        }),
        PER_MINUTE,
      ], // 415
    ];
    expect(responses.map(([r]) => r.statusCode)).toEqual([401, 401, 403, 404, 405, 200, 400, 415]);
    for (const [res, limit] of responses) expectLimitHeaders(res, limit);
  });

  it('keeps health and metrics endpoints out of the API budget', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe('failed credentials are limited per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { RATE_LIMIT_PUBLIC_PER_MINUTE: 3 } });
  });
  afterAll(() => t?.close());

  it('answers 429 after a burst of bad keys from one address, but not from another', async () => {
    const bad = bearer(`dsk_${'b'.repeat(49)}`);
    for (let i = 0; i < 3; i++) {
      expect((await t.app.inject({ method: 'GET', url: MEMBERS, headers: bad })).statusCode).toBe(401);
    }
    const limited = await t.app.inject({ method: 'GET', url: MEMBERS, headers: bad });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    const elsewhere = await t.app.inject({ method: 'GET', url: MEMBERS, headers: bad, remoteAddress: '198.51.100.7' });
    expect(elsewhere.statusCode).toBe(401);
  });
});

if (!REDIS_URL) {
  console.warn('SKIPPED: shared rate limits need TEST_REDIS_URL (or a Redis on 127.0.0.1:6379 under npm test)');
}
describe.skipIf(!REDIS_URL)('rate limits shared through Redis', () => {
  it('two app instances on one Redis spend one budget per credential', async () => {
    const redisA = new Redis(REDIS_URL!, { maxRetriesPerRequest: 2 });
    const redisB = new Redis(REDIS_URL!, { maxRetriesPerRequest: 2 });
    const a = await createTestApp({ redis: redisA, config: { RATE_LIMIT_PER_MINUTE: 4 } });
    const b = await createTestApp({ redis: redisB, database: a.db, config: { RATE_LIMIT_PER_MINUTE: 4 } });
    try {
      const key = await a.apiKey('all');
      const statuses: number[] = [];
      const remaining: number[] = [];
      for (const app of [a, b, a, b, a, b]) {
        const res = await app.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) });
        statuses.push(res.statusCode);
        remaining.push(limitHeaders(res).remaining);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      expect(remaining).toEqual([3, 2, 1, 0, 0, 0]);
      // Only this test's keys are touched: their names carry the key id, unique to this run.
      const [mine] = (await a.ctx.database.executeSql('select id from api_keys', [])).rows;
      expect(await redisA.exists(`ds_rl_api:api_key:${mine?.id}`)).toBe(1);
      await redisA.del(`ds_rl_api:api_key:${mine?.id}`);
    } finally {
      await b.close();
      await a.close();
      redisA.disconnect();
      redisB.disconnect();
    }
  });
});
