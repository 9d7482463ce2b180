import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../src/auth/permissions';
import { registeredRoutes, toOpenApiPath } from './helpers/routes';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

describe('HTTP contract (envelope, errors, pagination)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { BODY_LIMIT: 2048 } });
    key = await t.apiKey('all');
  });
  afterAll(() => t?.close());

  it('wraps a page in {data, meta} with total, page, per_page and request_id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(1);
    expect(body.meta).toEqual({ total: 1, page: 1, per_page: 20, request_id: res.headers['x-request-id'] });
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-z]{26}$/);
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=101', 'per_page'],
    ['per_page=2.5', 'per_page'],
  ])('refuses %s with a 400 naming the field', async (query, field) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/team/members?${query}`, headers: bearer(key) });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('invalid_request');
    expect(error.request_id).toBe(res.headers['x-request-id']);
    expect(error.details[0].field).toBe(field);
  });

  it('accepts per_page=100 and page beyond the end (empty page)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/team/members?per_page=100&page=5', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: [], meta: { total: 1, page: 5, per_page: 100 } });
  });

  it('answers an unknown path with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nope', headers: bearer(key) });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().error).toMatchObject({ code: 'not_found' });
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/v1/team/members', headers: bearer(key) });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.json().error.code).toBe('method_not_allowed');
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/team/members',
      headers: { ...bearer(key), 'content-type': 'text/plain' },
      payload: 'email=a@b.c',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('unsupported_media_type');
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/team/members',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', message: 'Malformed JSON body' });
  });

  it('refuses unknown body fields with 400 and changes nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/team/members',
      headers: bearer(key),
      payload: { email: 'new@example.com', role: 'editor', is_owner: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toContainEqual({ field: 'is_owner', message: 'unknown field' });
    const list = await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(key) });
    expect(list.json().meta.total).toBe(1);
  });

  it('refuses a body over BODY_LIMIT with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/team/members',
      headers: bearer(key),
      payload: { email: `${'a'.repeat(4000)}@example.com`, role: 'editor' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('serves the OpenAPI 3.1 document with every route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/v1/team/members'].get.security).toEqual([{ bearerAuth: ['team:read'] }, { oauth2: ['team:read'] }]);
    // Every registered /v1 route, method by method (the document itself is hidden), and no route that
    // does not exist.
    const registered = registeredRoutes(t.app).map((r) => `${r.method} ${toOpenApiPath(r.url)}`);
    const api = registered.filter((r) => r.includes(' /v1/') && !r.endsWith(' /v1/openapi.json'));
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(api.length).toBeGreaterThan(40);
    expect(documented.filter((r) => r.includes(' /v1/')).sort()).toEqual(api.sort());
    expect(registered).toEqual(expect.arrayContaining(documented));
    // Each route that needs a credential says which scope and which roles, as the permission table has it.
    const access = (op: { security?: Array<{ bearerAuth?: string[] }>; description?: string }) => ({
      scope: op.security?.[0]?.bearerAuth?.[0] ?? null,
      opening: op.description?.split(';')[0],
      roles: /roles: ([a-z, ]+)\./.exec(op.description ?? '')?.[1]?.split(', '),
    });
    const ops = Object.values(doc.paths as Record<string, Record<string, Parameters<typeof access>[0]>>).flatMap(Object.values);
    const guarded = ops.filter((op) => op.security?.length);
    expect(guarded.length).toBeGreaterThan(40);
    for (const op of guarded) {
      const { scope, opening, roles } = access(op);
      expect(opening).toBe(scope ? `Scope \`${scope}\`` : 'Web application (session sign-in) only');
      expect(roles?.length).toBeGreaterThan(0);
      expect(ROLES).toEqual(expect.arrayContaining(roles ?? ['none']));
      // Once: a GET and its HEAD share a schema, and the access line was once prefixed for each.
      expect(op.description?.match(/roles: /g), op.description).toHaveLength(1);
    }
    expect(access(doc.paths['/v1/demos/{id}'].delete)).toEqual({ scope: 'demos:write', opening: 'Scope `demos:write`', roles: ['admin'] });
    expect(access(doc.paths['/v1/demos'].post).roles).toEqual(['admin', 'editor']);
    expect(access(doc.paths['/v1/oauth/apps'].get)).toMatchObject({ scope: 'oauth_apps:write', roles: ['admin'] });
  });

  it('serves /docs under a Content-Security-Policy that lets Swagger UI load, and never in a frame', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    // Everything the page loads comes from this origin (script-src 'self' allows nothing inline) and is there.
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>\s*\S/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1]!, 'http://x/docs/').pathname);
    expect(assets).toEqual(expect.arrayContaining(['/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-initializer.js']));
    for (const url of [...assets, '/docs/json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy'], url).toBe(csp);
    }
  });

  it('serves /healthz, /readyz and /metrics', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('demoshare_http_requests_total');
  });
});
