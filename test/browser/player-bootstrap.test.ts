import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RECORD_FETCHES } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps } from '../helpers/shares';
import { keyData } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

/** What a browser's page load sends (viewer-bootstrap.ts `isBrowserNavigation`): only then is there a bootstrap. */
const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'accept-language': 'en-US' };

// The viewer page inlines the player's first answers (docs/player.md, "First paint"): the link state and,
// for a link the viewer may play, the payload and its first picture's preload.
describe.skipIf(!browser)('the viewer page bootstrap (Chromium)', () => {
  let server: TestServer;
  let key: string;
  let demoId: string;
  const contexts: BrowserContext[] = [];

  const api = (method: 'GET' | 'PATCH', url: string, payload?: object) => keyData(server, key, method, url, payload);

  beforeAll(async () => {
    server = await startTestServer({ selfUrl: true });
    mkdirSync(SHOTS, { recursive: true });
    key = await server.apiKey('all');
    demoId = await demoWithSteps(server, key, 3);
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  async function open(): Promise<{ page: Page; context: BrowserContext; api: string[] }> {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    // Each fetch the page starts, with its time: what started before the first-step mark came before the paint.
    await page.addInitScript(RECORD_FETCHES);
    // API requests (assets aside) in the order the page made them.
    const requests: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/v1/') && !url.pathname.includes('/assets/')) requests.push(`${request.method()} ${url.pathname}`);
    });
    return { page, context, api: requests };
  }
  const firstStep = (page: Page) => page.waitForFunction(() => performance.getEntriesByName('demoshare:first-step').length > 0);
  /** The API requests (assets aside) the page had started when its first step was painted. */
  const beforePaint = (page: Page) =>
    page.evaluate(() => {
      const painted = performance.getEntriesByName('demoshare:first-step')[0]!.startTime;
      const fetches = (window as unknown as { __fetches: { url: string; at: number }[] }).__fetches;
      return fetches
        .filter((f) => f.at <= painted && new URL(f.url, location.href).pathname.startsWith('/v1/') && !f.url.includes('/assets/'))
        .map((f) => new URL(f.url, location.href).pathname);
    });
  const views = async () => (await api('GET', `/demos/${demoId}/analytics`)).total_views as number;

  it('paints an open link with no API request before its first step, and the session it inlined records the view', async () => {
    const share = await createShare(server, key, demoId, { name: 'Open link' });
    const before = await views();
    const { page, context, api: requests } = await open();
    const images: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'image') images.push(new URL(request.url()).pathname);
    });
    await page.goto(`${server.url}/s/${share.token}`);
    await firstStep(page);
    expect(await beforePaint(page)).toEqual([]);
    expect(await page.locator('img.ds-shot').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // The preloaded picture is the one the player shows: fetched once.
    const shown = new URL(await page.locator('img.ds-shot').evaluate((img: HTMLImageElement) => img.src)).pathname;
    expect(images.filter((p) => p === shown)).toHaveLength(1);
    expect(await page.locator('link[rel=preload][as=image]').getAttribute('href')).toContain(shown);
    // The page opened the viewer session (HttpOnly cookie) the player would have asked for.
    expect((await context.cookies()).some((c) => c.name.startsWith('ds_view_') && c.httpOnly)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/player-bootstrap-first-step.png` });
    // The player goes on through the API with that session: its events are a view.
    await page.getByRole('button', { name: 'Click 1' }).click();
    await page.locator('.ds-count', { hasText: 'Step 2 of 3' }).waitFor();
    await expect.poll(views, { timeout: 20_000, interval: 200 }).toBeGreaterThan(before);
    expect(requests.some((r) => r.endsWith('/events'))).toBe(true);
    expect(requests.filter((r) => r === `GET /v1/viewer/${share.token}` || r.startsWith(`GET /v1/viewer/${share.token}/demo`))).toEqual([]);
  });

  it('falls back to the API when the page carries no bootstrap, or one for other languages', async () => {
    const share = await createShare(server, key, demoId, { name: 'Fallback' });
    const { page, api: requests } = await open();
    await page.route(`**/s/${share.token}`, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/<script id="demoshare-bootstrap"[\s\S]*?<\/script>/, '');
      await route.fulfill({ response, body });
    });
    await page.goto(`${server.url}/s/${share.token}`);
    await firstStep(page);
    expect(await beforePaint(page)).toEqual([`/v1/viewer/${share.token}`, `/v1/viewer/${share.token}/demo`]);
    expect(requests.slice(0, 2)).toEqual([`GET /v1/viewer/${share.token}`, `GET /v1/viewer/${share.token}/demo`]);

    // Asked in French by the address: the page chose the payload for these languages too, so it is used.
    const second = await open();
    await second.page.goto(`${server.url}/s/${share.token}?lang=fr`);
    await firstStep(second.page);
    expect(await beforePaint(second.page)).toEqual([]);
  });

  it('inlines only what a gated link shows before its gate, then plays once the gate is passed', async () => {
    const share = await createShare(server, key, demoId, { name: 'Gated', password: 'open sesame 42' });
    const res = await server.app.inject({ method: 'GET', url: `/s/${share.token}`, headers: NAVIGATION });
    expect(res.statusCode).toBe(200);
    const bootstrap = /<script id="demoshare-bootstrap" type="application\/json">([\s\S]*?)<\/script>/.exec(res.body)?.[1];
    expect(bootstrap).toBeDefined();
    const data = JSON.parse(bootstrap!);
    expect(data.state).toMatchObject({ gate: 'password', fields: ['password'], title: null });
    expect(data.state.session_token).toBeUndefined();
    expect(data.demo).toBeUndefined();
    // Nothing behind the gate anywhere in the page: no title, no step text, no asset, no preload, no cookie.
    for (const secret of ['Secret roadmap tour', 'Look at part', 'Click 1', '/assets/', 'rel="preload"']) expect(res.body).not.toContain(secret);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('private, no-store');

    const { page, api: requests } = await open();
    await page.goto(`${server.url}/s/${share.token}`);
    await page.getByLabel('Password', { exact: true }).fill('open sesame 42');
    expect(requests).toEqual([]);
    await page.getByRole('button', { name: 'View demo' }).click();
    await firstStep(page);
    expect(requests.slice(0, 2)).toEqual([`POST /v1/viewer/${share.token}/access`, `GET /v1/viewer/${share.token}/demo`]);
    expect(requests.filter((r) => r === `GET /v1/viewer/${share.token}`)).toEqual([]);
  });

  it('keeps a title made to break out of the script element inside its JSON', async () => {
    const hostile = 'Tour </script><script>alert(1)</script> <!-- \u2028\u2029 end';
    const id = await demoWithSteps(server, key, 2, false);
    await api('PATCH', `/demos/${id}`, { title: hostile });
    await api('PATCH', `/demos/${id}`, { status: 'published' });
    const share = await createShare(server, key, id, { name: 'Hostile' });

    const res = await server.app.inject({ method: 'GET', url: `/s/${share.token}`, headers: NAVIGATION });
    const block = /<script id="demoshare-bootstrap" type="application\/json">([\s\S]*?)<\/script>/.exec(res.body)![1]!;
    expect(block).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(block).demo.title).toBe(hostile);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");

    const { page } = await open();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${server.url}/s/${share.token}`);
    await firstStep(page);
    // The page holds exactly its three script elements: config, bootstrap, player.
    expect(await page.locator('script').count()).toBe(3);
    expect(await page.title()).toContain('Tour </script>');
    expect(dialogs).toEqual([]);
  });

  it('opens no session for a request that is not a browser showing the page (unfurlers, prefetch)', async () => {
    const share = await createShare(server, key, demoId, { name: 'Unfurled' });
    for (const headers of [{ 'user-agent': 'Slackbot-LinkExpanding 1.0' }, { ...NAVIGATION, 'sec-purpose': 'prefetch' }]) {
      const res = await server.app.inject({ method: 'GET', url: `/s/${share.token}`, headers });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('demoshare-bootstrap');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('respects ?consent=pending on the embed: no cookie, the session in the page, painted without an API request', async () => {
    const share = await createShare(server, key, demoId, { name: 'Embed pending' });
    const res = await server.app.inject({
      method: 'GET',
      url: `/embed/${share.token}?consent=pending`,
      headers: { ...NAVIGATION, 'sec-fetch-dest': 'iframe' },
    });
    expect(res.headers['set-cookie']).toBeUndefined();
    const block = /<script id="demoshare-bootstrap" type="application\/json">([\s\S]*?)<\/script>/.exec(res.body)![1]!;
    expect(JSON.parse(block).state.session_token).toMatch(/.{20,}/);

    const { page, context, api: requests } = await open();
    await page.goto(`${server.url}/embed/${share.token}?consent=pending`);
    await firstStep(page);
    expect(await beforePaint(page)).toEqual([]);
    expect(requests.filter((r) => r.startsWith('GET'))).toEqual([]);
    expect((await context.cookies()).filter((c) => c.name.startsWith('ds_view_'))).toEqual([]);
    // Its events go with the inlined session in X-Viewer-Session, still without a cookie.
    const events = page.waitForRequest((r) => r.url().endsWith('/events'));
    await page.getByRole('button', { name: 'Click 1' }).click();
    const sent = await events;
    expect(sent.headers()['x-viewer-session']).toMatch(/.{20,}/);
    expect(sent.headers()['x-viewer-consent']).toBe('pending');
    expect((await context.cookies()).filter((c) => c.name.startsWith('ds_view_'))).toEqual([]);
  });
});
