import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdKind, newId } from '../src/core/ids';
import { unchecked } from './helpers/contract';
import { type RegisteredRoute, registeredRoutes } from './helpers/routes';
import { createShare, demoWithSteps } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

/** Bodies a client can get wrong, each under the media type it claims. */
const MALFORMED: Array<[contentType: string | undefined, body: string]> = [
  ['application/json', '{"title": '],
  ['application/json', ''],
  ['application/json', 'null'],
  ['application/json', '[]'],
  ['application/json', '"text"'],
  ['application/json', '{}'],
  ['application/json', '{"__proto__": {"admin": true}}'],
  ['application/json; charset=iso-8859-1', '{"title": "caf\u00e9"}'],
  ['application/json', '\u0000\u0001\u0002'],
  ['application/x-www-form-urlencoded', 'grant_type=%ZZ&&=&code'],
  ['application/x-www-form-urlencoded', ''],
  ['text/plain', 'hello'],
  ['multipart/form-data; boundary=xyz', '--xyz\r\ngarbage'],
  ['image/png', 'not a png'],
  [undefined, '{"title": "no type"}'],
];

// Fresh, well-formed ids where no record is at hand: the route still parses the body before answering 404.
const PARAM_KINDS: Record<string, IdKind> = {
  step_id: 'step',
  hotspot_id: 'hotspot',
  asset_id: 'asset',
  delivery_id: 'delivery',
};
const ID_KIND_BY_PATH: Array<[RegExp, IdKind]> = [
  [/^\/v1\/api-keys/, 'apiKey'],
  [/^\/v1\/team/, 'member'],
  [/^\/v1\/oauth\/apps/, 'oauthApp'],
  [/^\/v1\/webhooks/, 'webhook'],
  [/^\/v1\/shares/, 'share'],
  [/^\/v1\/demos/, 'demo'],
  [/^\/v1\/recordings/, 'recording'],
];

describe('malformed bodies of every content type, on every route', () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;
  let demoId: string;
  let share: Awaited<ReturnType<typeof createShare>>;

  beforeAll(async () => {
    t = await createTestApp({
      config: { RATE_LIMIT_PER_MINUTE: 1_000_000, RATE_LIMIT_PUBLIC_PER_MINUTE: 1_000_000, VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000 },
    });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
    demoId = await demoWithSteps(t, key, 1);
    share = await createShare(t, key, demoId);
  });
  afterAll(() => t?.close());

  function concrete(route: RegisteredRoute): string {
    return route.url
      .replace('*', 'anything')
      .replace(/:(\w+)/g, (_, name: string) => {
        if (name === 'token') return share.token;
        if (name === 'number') return '1';
        if (name === 'id' && route.url.startsWith('/v1/demos')) return demoId;
        if (name === 'id' && route.url.startsWith('/v1/shares')) return share.id;
        const kind = PARAM_KINDS[name] ?? ID_KIND_BY_PATH.find(([re]) => re.test(route.url))?.[1] ?? 'demo';
        return newId(kind);
      });
  }

  it('never answers 5xx, signed in as an admin or with an all-scopes key', async () => {
    // Deletions and sign-out last, so that they do not take away what the other routes work on.
    const last = (r: RegisteredRoute) => (r.url === '/v1/auth/logout' ? 2 : r.method === 'DELETE' ? 1 : 0);
    const routes = registeredRoutes(t.app).sort((a, b) => last(a) - last(b));
    expect(routes.length).toBeGreaterThan(50);
    const callers = {
      key: (options: InjectOptions) => t.app.inject({ ...options, headers: { ...bearer(key), ...options.headers } }),
      session: (options: InjectOptions) => admin.inject(options),
    };
    const failures: string[] = [];
    for (const [who, inject] of Object.entries(callers)) {
      for (const route of routes) {
        const url = concrete(route);
        for (const [contentType, payload] of MALFORMED) {
          const options: InjectOptions = {
            method: route.method as 'POST',
            url,
            headers: contentType ? { 'content-type': contentType } : {},
            payload,
          };
          // A body sent to a GET or DELETE is beyond what the document promises; the 5xx check stands.
          const res = await inject(route.method === 'GET' || route.method === 'DELETE' ? unchecked(options) : options);
          if (res.statusCode >= 500) failures.push(`${who} ${route.method} ${url} [${contentType}] ${payload}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it.each([
    ['application/json', '{"grant_type": '],
    ['application/json', ''],
    ['application/json', 'null'],
    ['text/plain', 'grant_type=refresh_token'],
    ['multipart/form-data; boundary=xyz', '--xyz\r\ngarbage'],
  ])('the token and revocation endpoints answer %s %j in RFC 6749 form, never cached', async (contentType, payload) => {
    for (const url of ['/v1/oauth/token', '/v1/oauth/revoke']) {
      const res = await t.app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });
      expect(res.statusCode, `${url}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(500);
      expect(res.json()).toEqual({ error: expect.any(String), error_description: expect.any(String) });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});
