import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/api-keys/key-format';
import { createPostgresBus } from '../src/core/bus';
import { manualClock } from '../src/core/clock';
import { openDatabase } from '../src/db/client';
import { createTestDatabase, TEST_DATABASE_URL } from './helpers/database';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

const MEMBERS = '/v1/team/members';

/** The documented 401: error body, request id, and a Bearer challenge. */
function expect401(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, invalidToken: boolean) {
  expect(res.statusCode).toBe(401);
  const body = res.json() as { error: Record<string, unknown> };
  expect(body.error.code).toBe('unauthorized');
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error.request_id).toBe(res.headers['x-request-id']);
  const challenge = String(res.headers['www-authenticate']);
  expect(challenge).toMatch(/^Bearer realm="[^"]+"/);
  if (invalidToken) expect(challenge).toContain('error="invalid_token"');
  else expect(challenge).not.toContain('error=');
}

describe('bearer credentials', () => {
  const clock = manualClock('2026-03-01T12:00:00.000Z');
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t?.close());

  it('answers a request without Authorization with 401 and a plain Bearer challenge', async () => {
    const res = await t.app.inject({ method: 'GET', url: MEMBERS });
    expect401(res, false);
  });

  it.each([
    ['Basic dXNlcjpwYXNz'],
    ['Bearer'],
    ['Bearer '],
    ['Bearer a b'],
    ['dsk_abc'],
  ])('answers the malformed header %j with 401 invalid_token', async (header) => {
    const res = await t.app.inject({ method: 'GET', url: MEMBERS, headers: { authorization: header } });
    expect401(res, true);
  });

  it('refuses a well-formed key that was never issued', async () => {
    const res = await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(generateApiKey()) });
    expect401(res, true);
  });

  it('refuses a real key with one character changed (bad checksum) without a lookup', async () => {
    const key = await t.apiKey('all');
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    const tampered = `${key.slice(0, -1)}${last}`;
    expect401(await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(tampered) }), true);
    const bodyChanged = `${key.slice(0, 10)}${key[10] === 'x' ? 'y' : 'x'}${key.slice(11)}`;
    expect401(await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(bodyChanged) }), true);
    // The genuine key still works, so the refusals above were about the tampering.
    expect((await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).statusCode).toBe(200);
  });

  it('refuses a key of another kind of token or a lower-cased prefix', async () => {
    const key = await t.apiKey('all');
    expect401(await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key.replace('dsk_', 'DSK_')) }), true);
    expect401(await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(`x${key}`) }), true);
  });

  it('accepts the scheme name in any case, as RFC 7235 requires', async () => {
    const key = await t.apiKey('all');
    const res = await t.app.inject({ method: 'GET', url: MEMBERS, headers: { authorization: `bearer ${key}` } });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a key once it has expired, by the injected clock', async () => {
    const admin = await t.signUp();
    const created = await admin.inject({
      method: 'POST',
      url: '/v1/api-keys',
      payload: { name: 'short-lived', scopes: ['team:read'], expires_at: '2026-03-01T13:00:00.000Z' },
    });
    expect(created.statusCode).toBe(201);
    const key = created.json().data.key as string;
    expect((await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).statusCode).toBe(200);
    clock.advance(60 * 60 * 1000);
    expect401(await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) }), true);
    clock.advance(-60 * 60 * 1000);
  });

  it('refuses to create a key that is already expired (400) and creates nothing', async () => {
    const admin = await t.signUp();
    const res = await admin.inject({
      method: 'POST',
      url: '/v1/api-keys',
      payload: { name: 'past', scopes: ['team:read'], expires_at: '2026-03-01T11:00:00.000Z' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
    const list = await admin.inject({ method: 'GET', url: '/v1/api-keys' });
    expect(list.json().meta.total).toBe(0);
  });

  it('refuses a revoked key at once, even though it was cached', async () => {
    const admin = await t.signUp();
    const key = await t.apiKey('all', admin);
    expect((await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).statusCode).toBe(200);
    const [listed] = (await admin.inject({ method: 'GET', url: '/v1/api-keys' })).json().data;
    const del = await admin.inject({ method: 'DELETE', url: `/v1/api-keys/${listed.id}` });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect401(await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) }), true);
    // Revoking twice is a 404: the key no longer exists for management either.
    expect((await admin.inject({ method: 'DELETE', url: `/v1/api-keys/${listed.id}` })).statusCode).toBe(404);
  });

  it('does not let an API key manage keys (web-app only) and says so with 403', async () => {
    const key = await t.apiKey('all');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/api-keys',
      headers: bearer(key),
      payload: { name: 'minted', scopes: ['team:read'] },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
  });
});

if (!TEST_DATABASE_URL) {
  console.warn('SKIPPED: cross-process revocation needs TEST_DATABASE_URL (PostgreSQL LISTEN/NOTIFY)');
}
describe.skipIf(!TEST_DATABASE_URL)('revocation across processes (PostgreSQL LISTEN/NOTIFY bus)', () => {
  it('a key revoked through one app instance is refused by another within seconds', async () => {
    const shared = await createTestDatabase();
    const url = shared.url!;
    const busA = await createPostgresBus(shared.database);
    const otherDatabase = await openDatabase({ url, poolSize: 2 });
    const busB = await createPostgresBus(otherDatabase);
    const a = await createTestApp({ database: shared, bus: busA });
    const b = await createTestApp({
      database: { database: otherDatabase, url, drop: () => otherDatabase.close() },
      bus: busB,
    });
    try {
      const admin = await a.signUp();
      const key = await a.apiKey('all', admin);
      // Instance B resolves (and caches) the key.
      expect((await b.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).statusCode).toBe(200);
      expect((await b.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).statusCode).toBe(200);
      const [listed] = (await admin.inject({ method: 'GET', url: '/v1/api-keys' })).json().data;
      expect((await admin.inject({ method: 'DELETE', url: `/v1/api-keys/${listed.id}` })).statusCode).toBe(204);
      const deadline = Date.now() + 3_000;
      let status = 200;
      while (Date.now() < deadline) {
        status = (await b.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).statusCode;
        if (status === 401) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(401);
    } finally {
      await b.close();
      await otherDatabase.close().catch(() => {});
      await a.close();
      await shared.drop();
    }
  });
});
