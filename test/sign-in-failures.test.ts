import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestSession } from './helpers/test-app';

// TEST_REDIS_URL, not REDIS_URL: the suite must not switch the app's own configuration by accident.
const REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const PASSWORD = 'correct horse battery staple';
const LIMIT = 10;
const PARALLEL = 40;

/**
 * LOGIN_FAILURES_PER_ADDRESS must hold when the guesses arrive together: a password check takes tens of
 * milliseconds, and a count taken only after it lets every guess in flight through. A 401 (or the 400 of a
 * wrong current password) is a password that was checked; a 429 is one refused before the check.
 */
function concurrencySuite(name: string, options: () => { redis?: Redis }) {
  describe(name, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ ...options(), config: { LOGIN_FAILURES_PER_ADDRESS: LIMIT } });
    });
    afterAll(() => t?.close());

    const statusCounts = (codes: number[]) => {
      const counts: Record<number, number> = {};
      for (const code of codes) counts[code] = (counts[code] ?? 0) + 1;
      return counts;
    };
    const failedSignIns = async (session: TestSession) =>
      (await session.inject({ method: 'GET', url: '/v1/audit-log?action=user.sign_in_failed&per_page=100' })).json().meta.total;

    it(`${PARALLEL} parallel wrong passwords: ${LIMIT} are checked, the rest refused with 429`, async () => {
      const session = await t.signUp();
      const responses = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/v1/auth/login',
            remoteAddress: `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`,
            payload: { email: session.email, password: `wrong password number ${i}` },
          }),
        ),
      );
      expect(statusCounts(responses.map((r) => r.statusCode))).toEqual({ 401: LIMIT, 429: PARALLEL - LIMIT });
      // The audit log records each checked wrong password of an existing account: as many as the limit.
      expect(await failedSignIns(session)).toBe(LIMIT);
      const right = await t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: session.email, password: PASSWORD } });
      expect(right.statusCode).toBe(429);
    });

    it(`${PARALLEL} parallel wrong current passwords on a password change: ${LIMIT} are checked`, async () => {
      const session = await t.signUp();
      const responses = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          session.inject({
            method: 'PUT',
            url: '/v1/account/password',
            payload: { current_password: `wrong password number ${i}`, new_password: 'a different long passphrase' },
          }),
        ),
      );
      expect(statusCounts(responses.map((r) => r.statusCode))).toEqual({ 400: LIMIT, 429: PARALLEL - LIMIT });
    });

    it('a right password among parallel wrong ones signs in and clears the count; a refused one costs nothing', async () => {
      const session = await t.signUp();
      const wrong = (i: number) =>
        t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: session.email, password: `wrong password number ${i}` } });
      await Promise.all(Array.from({ length: LIMIT - 1 }, (_, i) => wrong(i)));
      const right = await t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: session.email, password: PASSWORD } });
      expect(right.statusCode).toBe(200);
      // Cleared: a full budget again.
      const again = await Promise.all(Array.from({ length: LIMIT }, (_, i) => wrong(i)));
      expect(again.map((r) => r.statusCode)).toEqual(Array(LIMIT).fill(401));
      // A sign-in refused for another reason than the password (a workspace it is not a member of) is not a failure.
      const fresh = await t.signUp();
      const elsewhere = await t.app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email: fresh.email, password: PASSWORD, workspace_id: session.workspaceId },
      });
      expect(elsewhere.statusCode).toBe(404);
      const next = await Promise.all(Array.from({ length: LIMIT }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: fresh.email, password: `wrong password number ${i}` } }),
      ));
      expect(next.map((r) => r.statusCode)).toEqual(Array(LIMIT).fill(401));
    });
  });
}

concurrencySuite('the per-address sign-in limit under concurrency (in-process counts)', () => ({}));

if (!REDIS_URL) {
  console.warn('SKIPPED: the sign-in limit through Redis needs TEST_REDIS_URL (or a Redis on 127.0.0.1:6379 under npm test)');
}
describe.skipIf(!REDIS_URL)('through Redis', () => {
  const redis = REDIS_URL ? new Redis(REDIS_URL, { maxRetriesPerRequest: 2 }) : undefined;
  afterAll(() => redis?.disconnect());
  concurrencySuite('the per-address sign-in limit under concurrency (counts in Redis)', () => ({ redis }));
});
