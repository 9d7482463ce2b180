import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { sha256Hex } from '../src/core/crypto';
import { newId } from '../src/core/ids';
import type { DemoSnapshot } from '../src/demos/demo-snapshot';
import { assets, demos, demoVersions } from '../src/demos/demos.tables';
import { makePng } from './helpers/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePlayerBuilt } from './helpers/web-build';
import { createShare, demoWithSteps } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

// The offline bundle through the API (docs/offline.md): the file of the published version, its headers and
// HEAD, the refusals, and the beacon route an online file posts its events to. The file played in Chromium
// from file:// is test/browser/offline-player.test.ts.

const APP_URL = 'https://demos.example.test';

/** The JSON block an offline file carries. */
function bundleData(html: string) {
  const m = html.match(/<script id="demoshare-offline" type="application\/json">([\s\S]*?)<\/script>/);
  if (!m) throw new Error('no offline data block');
  return JSON.parse(m[1]!) as {
    format: string;
    version: number;
    demo: { title: string; version: number; steps: Array<{ number: number; image_url: string | null }> };
    assets: Record<string, string>;
    snapshots: Record<string, string>;
    beacon: { url: string; ask: boolean } | null;
  };
}

describe('offline bundle API', () => {
  let t: TestApp;
  let key: string;
  let demoId: string;
  let site: Server;

  beforeAll(async () => {
    await ensurePlayerBuilt();
    // The captured site, for the pictures an export fetches into its snapshots.
    const logo = makePng(40, 12, [200, 30, 30]);
    site = createServer((req, res) => {
      if (req.url === '/logo.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(logo);
      if (req.url === '/fake.png') return res.writeHead(200, { 'content-type': 'image/png' }).end('<html>not a picture</html>');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    t = await createTestApp({ config: { APP_URL, ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32' } });
    key = await t.apiKey('all');
    demoId = await demoWithSteps(t, key, 3);
  });
  afterAll(async () => {
    site?.close();
    await t?.close();
  });

  const get = (url: string, k = key) => t.app.inject({ method: 'GET', url, headers: bearer(k) });

  it('answers one HTML file of the published version, with its size, and HEAD says the size first', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: `/v1/demos/${demoId}/export/offline`, headers: bearer(key) });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    const res = await get(`/v1/demos/${demoId}/export/offline`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="secret-roadmap-tour-v1-offline.html"');
    expect(res.headers['x-demo-version']).toBe('1');
    expect(Number(res.headers['x-bundle-size'])).toBe(res.rawPayload.length);
    expect(head.headers['x-bundle-size']).toBe(res.headers['x-bundle-size']);
    const html = res.body;
    const data = bundleData(html);
    expect(data.format).toBe('demoshare-offline');
    expect(data.demo.title).toBe('Secret roadmap tour');
    expect(data.demo.steps).toHaveLength(3);
    for (const step of data.demo.steps) expect(data.assets[step.image_url!]).toMatch(/^data:image\/png;base64,/);
    expect(data.beacon).toBeNull();
    // Nothing it could fetch: no address of this instance, no asset route, and a policy that loads nothing.
    const block = JSON.stringify(data);
    expect(html.includes(APP_URL)).toBe(false);
    expect(block.includes('/v1/')).toBe(false);
    expect(/Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'; .*connect-src 'none'/.test(html)).toBe(true);
    expect(/\b(?:src|href)=["']?(?:https?:)?\/\//i.test(html)).toBe(false);
  });

  it('refuses a demo never published (409), another workspace’s (404) and unknown parameters (400)', async () => {
    const draft = await demoWithSteps(t, key, 1, false);
    const never = await get(`/v1/demos/${draft}/export/offline`);
    expect(never.statusCode).toBe(409);
    expect(never.json().error.code).toBe('conflict');
    expect(never.json().error.message).toMatch(/never been published/);
    const otherKey = await t.apiKey('all');
    expect((await get(`/v1/demos/${demoId}/export/offline`, otherKey)).statusCode).toBe(404);
    const bad = await get(`/v1/demos/${demoId}/export/offline?beacon=yes`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('beacon');
    expect((await get(`/v1/demos/${demoId}/export/offline?share_id=shr_01jd3k7q9x8v2m4n6p0r5s7t9w`)).statusCode).toBe(400);
    const readOnly = await t.apiKey(['shares:read']);
    expect((await get(`/v1/demos/${demoId}/export/offline`, readOnly)).statusCode).toBe(403);
  });

  it('with beacon=true, writes an open link’s event address in; the route counts the file’s events as a view', async () => {
    const none = await get(`/v1/demos/${demoId}/export/offline?beacon=true`);
    expect(none.statusCode).toBe(409);
    expect(none.json().error.details[0].field).toBe('share_id');
    const locked = await createShare(t, key, demoId, { password: 'correct horse battery' });
    const refused = await get(`/v1/demos/${demoId}/export/offline?beacon=true&share_id=${locked.id}`);
    expect(refused.statusCode).toBe(409);
    const open = await createShare(t, key, demoId, { name: 'Offline copies' });
    const res = await get(`/v1/demos/${demoId}/export/offline?beacon=true`);
    expect(res.statusCode).toBe(200);
    const data = bundleData(res.body);
    expect(data.beacon).toEqual({ url: `${APP_URL}/v1/viewer/${open.token}/offline-events`, ask: false });
    expect(res.body).toContain(`connect-src ${APP_URL}`);
    // beacon=ask: the same address, and the file asks its viewer first (a file of its own, not the cached one).
    const asking = await get(`/v1/demos/${demoId}/export/offline?beacon=ask`);
    expect(asking.statusCode).toBe(200);
    expect(bundleData(asking.body).beacon).toEqual({ url: data.beacon!.url, ask: true });
    expect(bundleData((await get(`/v1/demos/${demoId}/export/offline?beacon=true`)).body).beacon).toEqual({ url: data.beacon!.url, ask: false });

    const post = (body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/viewer/${open.token}/offline-events`,
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'null' },
        payload: JSON.stringify(body),
      });
    const first = await post({ events: [{ id: randomUUID(), type: 'view_started', step_number: 1 }] });
    expect(first.statusCode).toBe(202);
    expect(first.headers['access-control-allow-origin']).toBe('*');
    const { session_token, accepted } = first.json().data;
    expect(accepted).toBe(1);
    const steps = [2, 3].map((n) => ({ id: randomUUID(), type: 'step_reached', step_number: n, seconds_on_previous: 2 }));
    const second = await post({ session_token, events: [...steps, { id: randomUUID(), type: 'completed', step_number: 3 }] });
    expect(second.statusCode).toBe(202);
    expect(second.json().data).toMatchObject({ session_token, accepted: 3, duplicates: 0 });
    expect((await post({ session_token, events: steps })).json().data).toMatchObject({ accepted: 0, duplicates: 2 });
    // Checked as /events checks them, and refused on a gated link.
    const invalid = await post({ session_token, events: [{ id: randomUUID(), type: 'step_reached' }] });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.details[0].field).toBe('events.0.step_number');
    expect((await post('not json')).statusCode).toBe(400);
    const gated = await t.app.inject({
      method: 'POST',
      url: `/v1/viewer/${locked.token}/offline-events`,
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ events: [{ id: randomUUID(), type: 'view_started' }] }),
    });
    expect(gated.statusCode).toBe(403);
    expect(gated.json().error.details[0]).toEqual({ field: 'gate', message: 'password' });

    const views = await get(`/v1/demos/${demoId}/views`);
    const view = views.json().data.find((v: { share_id: string }) => v.share_id === open.id);
    expect(view).toMatchObject({ completed: true, steps_viewed: [1, 2, 3] });
  });

  it('writes the captured site’s pictures into a snapshot (fetched, checked), and leaves out what is not one', async () => {
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const id = await demoWithSteps(t, key, 1);
    const { db } = t.ctx.database;
    const html = Buffer.from(
      `<html><head><style>.hero{background:url(${origin}/logo.png)}</style></head><body><div class="hero"></div>` +
        `<img id="a" src="${origin}/logo.png"><img id="b" src="${origin}/missing.png"><img id="c" src="${origin}/fake.png"></body></html>`,
    );
    const htmlId = newId('asset');
    const [row] = await db.select().from(demos).where(eq(demos.id, id));
    await db.insert(assets).values({ id: htmlId, workspaceId: row!.workspaceId, demoId: id, contentType: 'text/html; charset=utf-8', bytes: html, size: html.length, sha256: sha256Hex(html) });
    const [version] = await db.select().from(demoVersions).where(eq(demoVersions.demoId, id));
    const snapshot = version!.snapshot as unknown as DemoSnapshot;
    Object.assign(snapshot.steps[0]!, { image_asset_id: null, html_asset_id: htmlId, width: 1280, height: 800 });
    await db.update(demoVersions).set({ snapshot: snapshot as never }).where(eq(demoVersions.demoId, id));

    const res = await get(`/v1/demos/${id}/export/offline`);
    expect(res.statusCode).toBe(200);
    const data = bundleData(res.body);
    const page = Object.values(data.snapshots)[0]!;
    const png = `data:image/png;base64,${makePng(40, 12, [200, 30, 30]).toString('base64')}`;
    expect(page).toContain(`<img id="a" src="${png}">`);
    expect(page).toContain(`background:url(&quot;${png}&quot;)`.replace(/&quot;/g, '"'));
    expect(page).toMatch(/<img id="b" src="data:image\/gif;base64,/);
    expect(page).toMatch(/<img id="c" src="data:image\/gif;base64,/);
    expect(page.includes(origin)).toBe(false);
  });
});
