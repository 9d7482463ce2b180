import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps } from '../helpers/shares';
import { keyData } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

const FORM = {
  fields: [
    { name: 'email', label: 'Work e-mail', type: 'email', required: true },
    { name: 'name', label: 'Your name', type: 'text' },
  ],
  submit_label: 'Send',
};

interface Stored {
  local: Record<string, string>;
  session: Record<string, string>;
  databases: string[];
  caches: string[];
}

/**
 * Everything the embed's origin holds in the browser, read from inside the frame (its storage partition).
 * `blocked`: the browser refuses this frame any storage (a third-party frame under Chromium's default policy).
 */
async function storageOf(frame: Frame): Promise<Stored | 'blocked'> {
  return frame.evaluate(async () => {
    const dump = (s: Storage) => Object.fromEntries(Array.from({ length: s.length }, (_, i) => [s.key(i)!, s.getItem(s.key(i)!)!]));
    try {
      return {
        local: dump(localStorage),
        session: dump(sessionStorage),
        databases: (await indexedDB.databases()).map((d) => d.name ?? ''),
        caches: await caches.keys(),
      };
    } catch (error) {
      if ((error as Error).name === 'SecurityError') return 'blocked' as const;
      throw error;
    }
  });
}
/** Answers may be slow on a loaded machine: poll until they come (no clock is asserted). */
const POLL = { timeout: 20_000, interval: 100 };
const NOTHING = { local: {}, session: {}, databases: [], caches: [] };
/** The frame's storage where the browser grants it (the same-site host page does). */
async function granted(frame: Frame): Promise<Stored> {
  const stored = await storageOf(frame);
  if (stored === 'blocked') throw new Error('storage is blocked in this frame');
  return stored;
}

// docs/consent.md: an embed opened with ?consent=pending stores nothing (cookie or storage) until the host
// page grants consent, then carries on as before without reloading; withdrawal clears what it stored.
describe.skipIf(!browser)('consent-aware embed in a host page of another origin (Chromium)', () => {
  let server: TestServer;
  let key: string;
  let demoId: string;
  let token: string;
  let host: Server;
  let hostPort: number;
  /** What the share dialog's test pastes into a host page (served at /pasted). */
  let pasted = '';
  const contexts: BrowserContext[] = [];

  const api = (method: 'GET' | 'PATCH', url: string, payload?: object) => keyData(server, key, method, url, payload);

  beforeAll(async () => {
    // APP_URL is the server's own origin: the share dialog's embed code names it.
    server = await startTestServer({ selfUrl: true });
    mkdirSync(SHOTS, { recursive: true });
    key = await server.apiKey('all');
    demoId = await demoWithSteps(server, key, 4, false);
    const steps = (await api('GET', `/demos/${demoId}`)).steps as { id: string }[];
    await api('PATCH', `/demos/${demoId}/steps/${steps[1]!.id}`, { kind: 'form', content: { buttons: [], form: FORM } });
    await api('PATCH', `/demos/${demoId}`, { status: 'published' });
    const share = await createShare(server, key, demoId, { name: 'Website embed' });
    token = share.token;
    const embedUrl = `${server.url}/embed/${token}?consent=pending`;
    // The host page, and a frame of a third origin on it that tries to grant consent in the page's stead.
    host = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      if (req.url === '/pasted') {
        return res.end(`<!doctype html><title>Pasted</title>${pasted}
<script>window.received = []; addEventListener('message', (e) => { if (e.data && e.data.source === 'demoshare') window.received.push(e.data); });</script>`);
      }
      if (req.url === '/intruder') {
        return res.end(`<!doctype html><script>
setInterval(() => { try { parent.frames[0].postMessage({ type: 'demoshare:consent', granted: true }, '*'); } catch {} }, 50);
</script>`);
      }
      res.end(`<!doctype html><title>Host</title><h1>Our product</h1>
<div style="position:relative;width:100%;max-width:900px;aspect-ratio:16/10"><iframe src="${embedUrl}" title="Demo" style="position:absolute;inset:0;width:100%;height:100%;border:0"></iframe></div>
<iframe src="http://localhost:${(host.address() as AddressInfo).port}/intruder" title="Intruder" style="width:10px;height:10px;border:0"></iframe>
<script>
window.received = [];
addEventListener('message', (e) => { if (e.data && e.data.source === 'demoshare') window.received.push(e.data); });
window.consent = (granted) => document.querySelector('iframe').contentWindow.postMessage({ type: 'demoshare:consent', granted }, '*');
</script>`);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostPort = (host.address() as AddressInfo).port;
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    host?.close();
    await server?.close();
  });

  const figures = async () => (await api('GET', `/demos/${demoId}/analytics`)) as { total_views: number; unique_viewers: number; completion_rate: number };
  const received = (page: Page) => page.evaluate(() => (window as unknown as { received: Record<string, unknown>[] }).received);
  const embedCookies = async (context: BrowserContext) => (await context.cookies()).filter((c) => c.domain === '127.0.0.1');

  it('stores nothing before consent, resumes today’s behaviour on consent without a reload, and clears it on withdrawal', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    // The host page is another origin than the embed (another port of 127.0.0.1: same site, so the viewer
    // cookie would be accepted there today, which makes its absence mean something).
    expect(server.url).not.toBe(`http://127.0.0.1:${hostPort}`);
    const setCookies: string[] = [];
    page.on('response', async (response) => {
      if (!response.url().startsWith(server.url)) return;
      const header = await response.headerValue('set-cookie');
      if (header) setCookies.push(`${response.url()} ${header}`);
    });
    // Leads cannot reach the server yet: the one sent before consent must wait in memory only.
    let leadsBlocked = true;
    await context.route('**/v1/viewer/*/leads', (route) => (leadsBlocked ? route.abort() : route.continue()));

    await page.goto(`http://127.0.0.1:${hostPort}/`);
    const frameLocator = page.frameLocator('iframe[title="Demo"]');
    await frameLocator.locator('.ds-count', { hasText: 'Step 1 of 4' }).waitFor();
    const frame = page.frames().find((f) => f.url().startsWith(`${server.url}/embed/`))!;
    await page.waitForFunction(() => (window as unknown as { received: { type: string }[] }).received.some((m) => m.type === 'consent_pending'));
    await frame.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

    await frameLocator.getByRole('button', { name: 'Click 1' }).click();
    await frameLocator.getByLabel('Work e-mail').fill('jane@acme.test');
    await frameLocator.getByRole('button', { name: 'Send' }).click();
    await frameLocator.locator('.ds-count', { hasText: 'Step 3 of 4' }).waitFor();
    await expect.poll(async () => (await figures()).total_views, POLL).toBe(1);

    // The intruding frame has been posting "granted" all along: it is not the embedding parent.
    expect((await received(page)).some((m) => m.type === 'consent_changed')).toBe(false);
    expect(await storageOf(frame)).toEqual(NOTHING);
    expect(await embedCookies(context)).toEqual([]);
    expect(await context.cookies()).toEqual([]);
    expect(setCookies).toEqual([]);
    // Counted as a view, without a visitor id: not (yet) a unique viewer.
    expect(await figures()).toMatchObject({ total_views: 1, unique_viewers: 0 });
    await page.screenshot({ path: `${SHOTS}/embed-consent-pending.png`, animations: 'disabled' });

    await page.evaluate(() => (window as unknown as { consent: (g: boolean) => void }).consent(true));
    await page.waitForFunction(() =>
      (window as unknown as { received: { type: string; granted?: boolean }[] }).received.some((m) => m.type === 'consent_changed' && m.granted),
    );
    // Today's behaviour: the session in sessionStorage, the unsent lead in localStorage, the HttpOnly cookie.
    await expect.poll(async () => (await embedCookies(context)).map((c) => c.name), POLL).toEqual([expect.stringMatching(/^ds_view_/)]);
    const [cookie] = await embedCookies(context);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const after = await granted(frame);
    expect(after.session[`demoshare:session:${token}`]).toBe(cookie!.value);
    const queued = JSON.parse(after.local[`demoshare:leads:${token}`] ?? '[]') as { values: { email: string } }[];
    expect(queued.map((l) => l.values.email)).toEqual(['jane@acme.test']);
    // Not reloaded: same document, same step, same view (now a unique viewer).
    expect(await frame.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    await frameLocator.locator('.ds-count', { hasText: 'Step 3 of 4' }).waitFor();
    await expect.poll(async () => (await figures()).unique_viewers, POLL).toBe(1);
    expect((await figures()).total_views).toBe(1);

    // The lead leaves the queue once the server can be reached.
    leadsBlocked = false;
    await frame.evaluate(() => dispatchEvent(new Event('online')));
    await expect.poll(async () => (await granted(frame)).local[`demoshare:leads:${token}`], POLL).toBe('[]');
    expect(((await api('GET', `/leads?demo_id=${demoId}`)) as { email: string }[]).map((l) => l.email)).toEqual(['jane@acme.test']);
    await frameLocator.getByRole('button', { name: 'Click 3' }).click();
    await frameLocator.locator('.ds-count', { hasText: 'Step 4 of 4' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/embed-consent-granted.png`, animations: 'disabled' });

    // Withdrawn: the player stops writing and clears what it wrote; the cookie is expired; the demo plays on.
    await page.evaluate(() => (window as unknown as { consent: (g: boolean) => void }).consent(false));
    await page.waitForFunction(() =>
      (window as unknown as { received: { type: string; granted?: boolean }[] }).received.some((m) => m.type === 'consent_changed' && m.granted === false),
    );
    await expect.poll(async () => embedCookies(context), POLL).toEqual([]);
    expect(await storageOf(frame)).toEqual(NOTHING);
    await frameLocator.getByRole('button', { name: 'Click 4' }).click();
    await expect.poll(async () => (await figures()).completion_rate, POLL).toBe(1);
    expect(await storageOf(frame)).toEqual(NOTHING);
    expect(await embedCookies(context)).toEqual([]);
    expect(await figures()).toMatchObject({ total_views: 1, unique_viewers: 1 });
  });

  it('on a host page of another site too: nothing stored before consent, and the view counted as a viewer once granted', async () => {
    const context = await browser!.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const start = await figures();
    await page.goto(`http://localhost:${hostPort}/`);
    const frameLocator = page.frameLocator('iframe[title="Demo"]');
    await frameLocator.locator('.ds-count', { hasText: 'Step 1 of 4' }).waitFor();
    const frame = page.frames().find((f) => f.url().startsWith(`${server.url}/embed/`))!;
    await page.waitForFunction(() => (window as unknown as { received: { type: string }[] }).received.some((m) => m.type === 'consent_pending'));
    // One of the intruder's messages arrives (waiting on it, not on a clock): it changes nothing.
    await frame.evaluate(() => new Promise((resolve) => addEventListener('message', resolve, { once: true })));
    // A third-party frame: Chromium may refuse it storage altogether; where it allows it, it is empty.
    expect([NOTHING, 'blocked']).toContainEqual(await storageOf(frame));
    expect(await context.cookies()).toEqual([]);
    await expect.poll(async () => (await figures()).total_views, POLL).toBe(start.total_views + 1);
    expect((await figures()).unique_viewers).toBe(start.unique_viewers);
    await page.screenshot({ path: `${SHOTS}/embed-consent-pending-phone.png`, animations: 'disabled' });

    await page.evaluate(() => (window as unknown as { consent: (g: boolean) => void }).consent(true));
    await page.waitForFunction(() =>
      (window as unknown as { received: { type: string; granted?: boolean }[] }).received.some((m) => m.type === 'consent_changed' && m.granted),
    );
    await expect.poll(async () => (await figures()).unique_viewers, POLL).toBe(start.unique_viewers + 1);
    await frameLocator.getByRole('button', { name: 'Click 1' }).click();
    await frameLocator.getByLabel('Work e-mail').waitFor();
    expect((await figures()).total_views).toBe(start.total_views + 1);
  });

  it('offers the consent option in the share dialog, whose code and consent call work as pasted (1280 and 390 px)', async () => {
    const session = await server.signUp();
    const ownKey = await server.apiKey('all', session);
    const ownDemo = await demoWithSteps(server, ownKey, 2);
    await createShare(server, ownKey, ownDemo, { name: 'Pricing page' });
    let code = '';
    let call = '';
    for (const [label, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
      const { context, page } = await signedInPage(browser!, server.url, session, viewport);
      contexts.push(context);
      await page.goto(`${server.url}/demos`);
      await page.getByRole('button', { name: 'Share Secret roadmap tour' }).click();
      await page.getByRole('button', { name: 'Embed code for Pricing page' }).click();
      const dialog = page.getByRole('dialog', { name: 'Embed this demo' });
      const plain = await dialog.getByLabel('Embed code').inputValue();
      expect(plain).not.toContain('consent');
      expect(await dialog.getByLabel('Consent call').count()).toBe(0);
      await dialog.getByLabel('Wait for the site’s cookie consent').check();
      code = await dialog.getByLabel('Embed code').inputValue();
      call = await dialog.getByLabel('Consent call').inputValue();
      expect(code).toMatch(new RegExp(`src="${server.url}/embed/[A-Za-z0-9_-]+\\?consent=pending"`));
      expect(call).toContain(`postMessage({ type: 'demoshare:consent', granted: true }, '${server.url}')`);
      expect(await overflowing(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/embed-consent-dialog-${label}.png`, animations: 'disabled' });
    }

    // Pasted as given into another site's page: nothing stored until the consent call runs; then the session is kept.
    pasted = code;
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`http://127.0.0.1:${hostPort}/pasted`);
    await page.frameLocator('iframe').locator('.ds-count', { hasText: 'Step 1 of 2' }).waitFor();
    await page.waitForFunction(() => (window as unknown as { received: { type: string }[] }).received.some((m) => m.type === 'consent_pending'));
    const frame = page.frames().find((f) => f.url().startsWith(`${server.url}/embed/`))!;
    expect(await storageOf(frame)).toEqual(NOTHING);
    expect(await context.cookies()).toEqual([]);
    await page.evaluate(call);
    await expect.poll(async () => (await context.cookies()).map((c) => c.name), POLL).toEqual([expect.stringMatching(/^ds_view_/)]);
    expect(Object.keys((await granted(frame)).session).filter((k) => k.startsWith('demoshare:session:'))).toHaveLength(1);
  });
});
