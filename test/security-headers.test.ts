import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HSTS } from '../src/core/http/security-headers';
import { WEB_APP_CSP } from '../src/web/web.routes';
import { createShare, demoWithSteps } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';
import { ensurePlayerBuilt, ensureWebBuilt } from './helpers/web-build';

/**
 * Every HTML answer carries a Content-Security-Policy, refuses framing (unless its policy says who may frame
 * it: the embed page) and has a Referrer-Policy, whichever route or plugin made it. /index.html, served by the
 * static server, once had none of them and could be framed. With an https APP_URL, every answer has HSTS.
 */
async function world(appUrl: string) {
  const t = await createTestApp({ config: { APP_URL: appUrl } });
  const admin = await t.signUp();
  const key = await t.apiKey('all', admin);
  const demo = await demoWithSteps(t, key, 1, true);
  const share = await createShare(t, key, demo);
  return { t, key, demo, share };
}

const get = (t: TestApp, url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

function expectNotFramable(res: LightMyRequestResponse, url: string) {
  expect(res.headers['content-type'], url).toMatch(/^text\/html/);
  expect(String(res.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
  expect(res.headers['x-frame-options'], url).toBe('DENY');
  expect(res.headers['referrer-policy'], url).toBeTruthy();
  expect(res.headers['x-content-type-options'], url).toBe('nosniff');
}

describe('security headers on every HTML answer', () => {
  let w: Awaited<ReturnType<typeof world>>;

  beforeAll(async () => {
    ensureWebBuilt();
    ensurePlayerBuilt();
    w = await world('http://localhost:3000');
  }, 300_000);
  afterAll(() => w?.t.close());

  it.each(['/index.html', '/', '/demos/some/deep/route?x=1', '/settings/api-keys', '/oauth/authorize?client_id=x'])(
    '%s: the web app policy, no framing, same-origin referrers',
    async (url) => {
      const res = await get(w.t, url);
      expect(res.statusCode, url).toBe(200);
      expectNotFramable(res, url);
      expect(res.headers['content-security-policy']).toBe(WEB_APP_CSP);
      expect(res.headers['referrer-policy']).toBe('same-origin');
    },
  );

  it('/index.html is the page the SPA routes answer, with the same headers', async () => {
    const [file, route] = [await get(w.t, '/index.html'), await get(w.t, '/')];
    expect(file.body).toBe(route.body);
    for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy']) expect(file.headers[name], name).toBe(route.headers[name]);
  });

  it('/s/:token keeps its own policy and no-referrer, and refuses framing, found or not', async () => {
    for (const url of [`/s/${w.share.token}`, '/s/unknown-token-123']) {
      const res = await get(w.t, url);
      expectNotFramable(res, url);
      expect(res.headers['content-security-policy']).not.toBe(WEB_APP_CSP);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('/embed/:token may be framed by any site, as designed: frame-ancestors *, no X-Frame-Options', async () => {
    const res = await get(w.t, `/embed/${w.share.token}`);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-security-policy'])).toContain('frame-ancestors *');
    expect(String(res.headers['content-security-policy'])).not.toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('/docs keeps its own policy and gets a Referrer-Policy', async () => {
    const res = await get(w.t, '/docs/');
    expect(res.statusCode).toBe(200);
    expectNotFramable(res, '/docs/');
    expect(res.headers['content-security-policy']).not.toBe(WEB_APP_CSP);
  });

  it('an SVG from the static server is a document too; a PNG is not', async () => {
    const detail = (await get(w.t, `/v1/demos/${w.demo}`, bearer(w.key))).json().data;
    const image = await get(w.t, new URL(detail.steps[0].image_url).pathname, bearer(w.key));
    expect(image.statusCode).toBe(200);
    expect(image.headers['x-frame-options']).toBeUndefined();
    const svg = await get(w.t, '/favicon.svg');
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(svg.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(svg.headers['x-frame-options']).toBe('DENY');
  });

  it('sends no Strict-Transport-Security when APP_URL is http', async () => {
    for (const url of ['/', '/index.html', '/healthz', '/v1/demos', '/v1/%zz']) {
      expect((await get(w.t, url)).headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('leaves JSON answers alone', async () => {
    const res = await get(w.t, '/v1/demos', bearer(w.key));
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
  });
});

describe('HSTS when APP_URL is https', () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world('https://demos.example.com');
  });
  afterAll(() => w?.t.close());

  it('is on every answer: pages, the API, errors, a malformed path, the health check', async () => {
    for (const url of ['/', '/index.html', `/s/${w.share.token}`, `/embed/${w.share.token}`, '/docs/', '/healthz', '/v1/demos', '/v1/nope', '/v1/%zz']) {
      const res = await get(w.t, url);
      expect(res.headers['strict-transport-security'], `${url} ${res.statusCode}`).toBe(HSTS);
    }
    expect(HSTS).toBe('max-age=31536000');
  });

  it('is on /mcp too, whose answers are written outside the onSend hooks', async () => {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...bearer(w.key), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['strict-transport-security']).toBe(HSTS);
  });
});
