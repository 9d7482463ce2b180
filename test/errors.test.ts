import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../src/core/errors';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const MEMBERS = '/v1/team/members';

type Res = { statusCode: number; headers: Record<string, unknown>; body: string; json(): unknown };

/** The one error body of DESIGN.md, exactly: no other keys, a code matching the status, the request id. */
function expectErrorBody(res: Res, status: number, code: keyof typeof ERROR_STATUS) {
  expect(res.statusCode, res.body).toBe(status);
  expect(ERROR_STATUS[code]).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json() as { error: Record<string, unknown> };
  expect(Object.keys(body)).toEqual(['error']);
  const keys = Object.keys(body.error).sort();
  expect(keys.filter((k) => k !== 'details')).toEqual(['code', 'message', 'request_id']);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect((body.error.message as string).length).toBeGreaterThan(0);
  expect(body.error.request_id).toBe(res.headers['x-request-id']);
  expect(String(body.error.request_id)).toMatch(/^req_[0-9a-z]{26}$/);
  // Every error, the router's own refusals of a malformed path included (set without the hooks there).
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  if ('details' in body.error) {
    for (const d of body.error.details as unknown[]) expect(Object.keys(d as object).sort()).toEqual(['field', 'message']);
  }
  return body.error;
}

describe('every documented error status, with the documented body', () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { BODY_LIMIT: 1024, RATE_LIMIT_PER_MINUTE: 50 } });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
  });
  afterAll(() => t?.close());

  it('400 invalid_request: bad query, bad path id, unknown field, malformed JSON, empty JSON body', async () => {
    const h = bearer(key);
    const cases: Array<[Res, string | undefined]> = [
      [await t.app.inject({ method: 'GET', url: `${MEMBERS}?per_page=500`, headers: h }), 'per_page'],
      [await t.app.inject({ method: 'DELETE', url: `${MEMBERS}/42`, headers: h }), 'id'],
      [await t.app.inject({ method: 'POST', url: MEMBERS, headers: h, payload: { email: 'a@example.com', role: 'viewer', x: 1 } }), 'x'],
      [await t.app.inject({ method: 'POST', url: MEMBERS, headers: { ...h, 'content-type': 'application/json' }, payload: '{"a":' }), undefined],
      [await t.app.inject({ method: 'POST', url: MEMBERS, headers: { ...h, 'content-type': 'application/json' }, payload: '[1,2]' }), undefined],
      [await t.app.inject({ method: 'POST', url: MEMBERS, headers: { ...h, 'content-type': 'application/json' }, payload: '"str"' }), undefined],
    ];
    for (const [res, field] of cases) {
      const error = expectErrorBody(res, 400, 'invalid_request');
      if (field) expect((error.details as Array<{ field: string }>).map((d) => d.field)).toContain(field);
    }
    expect((await t.app.inject({ method: 'GET', url: MEMBERS, headers: h })).json().meta.total).toBe(1);
  });

  it('401 unauthorized', async () => {
    expectErrorBody(await t.app.inject({ method: 'GET', url: MEMBERS }), 401, 'unauthorized');
  });

  it('403 insufficient_scope and forbidden', async () => {
    const narrow = await t.apiKey(['demos:read']);
    expectErrorBody(await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(narrow) }), 403, 'insufficient_scope');
    expectErrorBody(await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(key) }), 403, 'forbidden');
  });

  it('404 not_found for an unknown route and for a missing record', async () => {
    expectErrorBody(await t.app.inject({ method: 'GET', url: '/v1/unknown', headers: bearer(key) }), 404, 'not_found');
    expectErrorBody(
      await t.app.inject({ method: 'DELETE', url: `${MEMBERS}/mem_01jd3k7q9x8v2m4n6p0r5s7t9w`, headers: bearer(key) }),
      404,
      'not_found',
    );
  });

  it('405 method_not_allowed with Allow', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: MEMBERS, headers: bearer(key) });
    expectErrorBody(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, POST');
    const one = await t.app.inject({ method: 'GET', url: `${MEMBERS}/${admin.memberId}`, headers: bearer(key) });
    expectErrorBody(one, 405, 'method_not_allowed');
    expect(one.headers.allow).toBe('DELETE, PATCH');
  });

  it('409 conflict', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `${MEMBERS}/${admin.memberId}`, headers: bearer(key) });
    expectErrorBody(res, 409, 'conflict');
  });

  it('413 payload_too_large, and nothing is created', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: MEMBERS,
      headers: bearer(key),
      payload: { email: `${'b'.repeat(2000)}@example.com`, role: 'viewer' },
    });
    expectErrorBody(res, 413, 'payload_too_large');
    expect(res.json().error.message).toMatch(/^Request body is too large: the limit is \d+(\.\d)? (KB|MB|bytes)$/);
    expect((await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).json().meta.total).toBe(1);
  });

  it('415 unsupported_media_type for form and text bodies, and a missing Content-Type', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const res = await t.app.inject({
        method: 'POST',
        url: MEMBERS,
        headers: { ...bearer(key), 'content-type': type },
        payload: 'email=a%40example.com&role=viewer',
      });
      expectErrorBody(res, 415, 'unsupported_media_type');
    }
    const res = await t.app.inject({
      method: 'POST',
      url: MEMBERS,
      headers: { ...bearer(key), 'content-length': '10' },
      payload: Buffer.from('{"a":true}'),
    });
    expectErrorBody(res, 415, 'unsupported_media_type');
    expect((await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).json().meta.total).toBe(1);
  });

  it('400 invalid_request, in the envelope, for a malformed escape or an overlong segment in the path (found by the fuzzer)', async () => {
    expectErrorBody(await t.app.inject({ method: 'GET', url: '/v1/demos/%zz', headers: bearer(key) }), 400, 'invalid_request');
    expectErrorBody(await t.app.inject({ method: 'PATCH', url: `/v1/demos/${'a'.repeat(3000)}`, headers: bearer(key), payload: {} }), 400, 'invalid_request');
    expectErrorBody(await t.app.inject({ method: 'POST', url: `/v1/viewer/${'a'.repeat(3000)}/unlock`, payload: {} }), 400, 'invalid_request');
  });

  it('does not refuse a request without a body for its Content-Type (found by the fuzzer)', async () => {
    const invited = await t.app.inject({ method: 'POST', url: MEMBERS, headers: bearer(key), payload: { email: 'gone.soon@example.com', role: 'viewer' } });
    expect(invited.statusCode).toBe(201);
    for (const type of ['application/xml', 'text/plain', 'multipart/form-data; boundary=x', 'application/json', 'application/json; charset=iso-8859-1']) {
      const res = await t.app.inject({ method: 'DELETE', url: `${MEMBERS}/mem_01jd3k7q9x8v2m4n6p0r5s7t9w`, headers: { ...bearer(key), 'content-type': type } });
      expectErrorBody(res, 404, 'not_found');
    }
    const res = await t.app.inject({ method: 'DELETE', url: `${MEMBERS}/${invited.json().data.id}`, headers: { ...bearer(key), 'content-type': 'text/plain' } });
    expect(res.statusCode, res.body).toBe(204);
    // With a body, the type still counts.
    const withBody = await t.app.inject({ method: 'POST', url: `${MEMBERS}/${admin.memberId}/invitation`, headers: { ...bearer(key), 'content-type': 'application/xml' }, payload: '<x/>' });
    expectErrorBody(withBody, 415, 'unsupported_media_type');
  });

  it('accepts application/json with a charset parameter', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: MEMBERS,
      headers: { ...bearer(key), 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify({ email: 'charset@example.com', role: 'viewer' }),
    });
    expect(res.statusCode).toBe(201);
  });

  it('429 rate_limited', async () => {
    const limited = await createTestApp({ config: { RATE_LIMIT_PER_MINUTE: 1 } });
    try {
      const k = await limited.apiKey('all');
      expect((await limited.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(k) })).statusCode).toBe(200);
      expectErrorBody(await limited.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(k) }), 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });

  it('every response carries X-Request-Id, including the web app and errors outside /v1', async () => {
    for (const url of ['/healthz', '/v1/openapi.json', '/nope.js', '/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-request-id'], url).toMatch(/^req_/);
    }
  });
});

describe('a failure on our side', () => {
  it('answers 500 or 503 without a stack trace, SQL or driver message when the database is gone', async () => {
    const t = await createTestApp();
    try {
      const key = await t.apiKey('all');
      expect((await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).statusCode).toBe(200);
      await t.ctx.database.close();
      const res = await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) });
      expect([500, 503]).toContain(res.statusCode);
      const error = expectErrorBody(res, res.statusCode, res.statusCode === 500 ? 'internal_error' : 'unavailable');
      expect(error.details).toBeUndefined();
      for (const leak of [/select/i, /from "/i, /members/i, /\bat \w+ \(/, /\.ts:\d+/, /pglite|postgres|pg-pool|ECONN/i, /Error:/]) {
        expect(res.body).not.toMatch(leak);
      }
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
    } finally {
      await t.close().catch(() => {});
    }
  });
});
