import { request as httpRequest, type IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShare, demoWithSteps } from './helpers/shares';
import { startTestServer, type TestServer } from './helpers/server';
import { bearer } from './helpers/test-app';

/** What a browser's page load sends (viewer-bootstrap.ts `isBrowserNavigation`): only then is there a bootstrap. */
const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'accept-language': 'en-US' };
const BOOTSTRAP = /<script id="demoshare-bootstrap" type="application\/json">([\s\S]*?)<\/script>/;

// The viewer page a browser opens (docs/player.md, "First paint"): its head goes out before the viewer's
// session is written, with that session's cookie; the rest of the page follows once it is.
describe('the viewer page of a browser’s page load', () => {
  let server: TestServer;
  let key: string;
  let demoId: string;

  beforeAll(async () => {
    server = await startTestServer();
    key = await server.apiKey('all');
    demoId = await demoWithSteps(server, key, 3);
  }, 180_000);
  afterAll(() => server?.close());

  const decisions = async (shareId: string) =>
    (
      (await server.app.inject({ method: 'GET', url: `/v1/shares/${shareId}/access-log?per_page=100`, headers: bearer(key) })).json()
        .data as Array<{ decision: string }>
    ).map((e) => e.decision);

  it('opens the session its headers carry the cookie of, names it in the bootstrap, and logs the access once', async () => {
    const share = await createShare(server, key, demoId, { name: 'Streamed' });
    const res = await server.app.inject({ method: 'GET', url: `/s/${share.token}`, headers: NAVIGATION });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const cookie = (res.cookies as Array<{ name: string; value: string; httpOnly?: boolean }>).find((c) => c.name.startsWith('ds_view_'));
    expect(cookie?.httpOnly).toBe(true);
    const bootstrap = JSON.parse(BOOTSTRAP.exec(res.body)![1]!);
    expect(bootstrap.state).toMatchObject({ gate: 'ready', session_token: cookie!.value });
    expect(res.body).toContain(`<link rel="preload" as="image" fetchpriority="high" href="${bootstrap.demo.steps[0].image_url}">`);
    // The head names the stylesheet and the script before the bootstrap.
    expect(res.body.indexOf('/player/player.js')).toBeLessThan(res.body.indexOf('demoshare-bootstrap'));
    expect(res.body.endsWith('</body></html>')).toBe(true);

    // That cookie alone opens the payload and the first picture.
    const headers = { cookie: `${cookie!.name}=${cookie!.value}` };
    const demo = await server.app.inject({ method: 'GET', url: `/v1/viewer/${share.token}/demo`, headers });
    expect(demo.statusCode).toBe(200);
    const image = await server.app.inject({ method: 'GET', url: bootstrap.demo.steps[0].image_url, headers });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    // The gate decision is written once the page has gone.
    await expect.poll(() => decisions(share.id), { timeout: 10_000, interval: 50 }).toEqual(['granted']);

    // The next load with the cookie: the same session, no new cookie.
    const again = await server.app.inject({ method: 'GET', url: `/s/${share.token}`, headers: { ...NAVIGATION, ...headers } });
    expect(again.headers['set-cookie']).toBeUndefined();
    const second = JSON.parse(BOOTSTRAP.exec(again.body)![1]!);
    expect(second.state.gate).toBe('ready');
    expect(second.state.session_token).toBeUndefined();
    expect(second.cookie).toBe(true);
    expect(second.demo.steps).toHaveLength(3);
    await expect.poll(() => decisions(share.id), { timeout: 10_000, interval: 50 }).toEqual(['granted', 'granted']);
  });

  it('sends its head, with the cookie, while the session is still being written', async () => {
    const share = await createShare(server, key, demoId, { name: 'Held' });
    // One load first: the link, its payload and its domain are in the caches, as for any link opened before.
    expect((await server.app.inject({ method: 'GET', url: `/s/${share.token}`, headers: NAVIGATION })).statusCode).toBe(200);

    // The session's INSERT waits behind this transaction: its row lock on the link (the session's foreign
    // key) on PostgreSQL, PGlite's one connection there.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const held = server.ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from shares where id = ${share.id} for update`);
      locked();
      await released;
    });
    await holding;

    try {
      const url = new URL(`/s/${share.token}`, server.url);
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        httpRequest(url, { headers: NAVIGATION }, resolve).on('error', reject).end();
      });
      response.setEncoding('utf8');
      let received = '';
      const ended = new Promise<void>((resolve) => response.on('end', resolve));
      const headArrived = new Promise<void>((resolve) => {
        response.on('data', (chunk: string) => {
          received += chunk;
          if (received.includes('<body>')) resolve();
        });
      });
      await headArrived;
      // The head is here, the session is not written yet: the stylesheet and script can load meanwhile.
      expect(response.statusCode).toBe(200);
      const cookie = String(response.headers['set-cookie'] ?? '');
      expect(cookie).toMatch(/^ds_view_[0-9a-f]{16}=/);
      expect(received).toContain('<link rel="stylesheet" href="/player/player.css">');
      expect(received).toContain('<script type="module" src="/player/player.js"></script>');
      expect(received).not.toContain('demoshare-bootstrap');

      release();
      await ended;
      const bootstrap = JSON.parse(BOOTSTRAP.exec(received)![1]!);
      expect(cookie).toContain(`=${bootstrap.state.session_token};`);
      expect(received).toContain('<div id="player"></div></body></html>');
    } finally {
      release();
      await held;
    }
  });

  it('a gated link: no cookie, nothing behind the gate, and its refusal logged', async () => {
    const share = await createShare(server, key, demoId, { name: 'Gated page', password: 'let me in 42' });
    const res = await server.app.inject({ method: 'GET', url: `/s/${share.token}`, headers: NAVIGATION });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    const bootstrap = JSON.parse(BOOTSTRAP.exec(res.body)![1]!);
    expect(bootstrap.state).toMatchObject({ gate: 'password' });
    expect(bootstrap.demo).toBeUndefined();
    for (const secret of ['Secret roadmap tour', 'Look at part', '/assets/', 'rel="preload"']) expect(res.body).not.toContain(secret);
    await expect.poll(() => decisions(share.id), { timeout: 10_000, interval: 50 }).toEqual(['password_required']);
  });

  it('serves the player’s two files compressed, with an ETag to revalidate against, and nothing else under /player/', async () => {
    const plain = await server.app.inject({ method: 'GET', url: '/player/player.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('demoshare:first-step');
    const etag = String(plain.headers.etag);
    const br = await server.app.inject({ method: 'GET', url: '/player/player.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const gzip = await server.app.inject({ method: 'GET', url: '/player/player.css', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('.ds-player');
    const again = await server.app.inject({ method: 'GET', url: '/player/player.js', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    for (const path of ['/player/other.js', '/player/..%2Fweb%2Findex.html', '/player/']) {
      expect((await server.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    }
  });
});
