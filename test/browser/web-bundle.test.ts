import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdRequests, launchBrowser, signedInPage } from '../helpers/browser';
import { routeJavaScript, SIGN_IN_BUDGET_BYTES } from '../helpers/route-javascript';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const PASSWORD = 'correct horse battery staple';
const browser: Browser | null = await launchBrowser();

// The app is split by page (web/src/routing/): these hold the sign-in page to its budget and check what a
// browser meets when pages arrive late, or not at all, as when a deploy has replaced the files.
describe.skipIf(!browser)('the web app loads what a page needs (Chromium)', () => {
  let server: TestServer;
  let admin: TestSession;
  let demoId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer({ config: { RATE_LIMIT_LOGIN_PER_MINUTE: 100 } });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp(undefined, PASSWORD);
    const created = await admin.inject({ method: 'POST', url: '/v1/demos', payload: { title: 'Ledgerly tour', type: 'interactive' } });
    demoId = created.json().data.id;
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  async function open(viewport = { width: 1280, height: 900 }): Promise<Page> {
    const { context, page } = await signedInPage(browser!, server.url, admin, viewport);
    contexts.push(context);
    return page;
  }

  it(`the sign-in page's JavaScript is at most ${SIGN_IN_BUDGET_BYTES / 1024} KB gzipped, and none of it is the editor's or the charts'`, async () => {
    const measured = await routeJavaScript(browser!, `${server.url}/login`, (page) =>
      page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor(),
    );
    const listing = measured.files.map((f) => `${f.path} ${f.gzipped}`).join('\n');
    expect(measured.gzipped, listing).toBeLessThanOrEqual(SIGN_IN_BUDGET_BYTES);
    expect(listing).not.toMatch(/demo-editor|analytics|app-layout/);
  });

  it('signing in fetches the dashboard while the password is being checked', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill(PASSWORD);
    const login = await holdRequests(page, /\/v1\/auth\/login$/);
    const dashboard = page.waitForResponse(/\/assets\/demos-page-[\w-]+\.js$/);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await login.requested;
    // The chunk arrives while the sign-in answer is still held.
    expect((await dashboard).ok()).toBe(true);
    login.release();
    await page.getByRole('heading', { name: 'Demos', exact: true }).waitFor();
  });

  it('pointing at a link fetches its page; following it keeps the current page on screen until the next is ready', async () => {
    const page = await open();
    await page.goto(`${server.url}/demos`);
    await page.getByRole('heading', { name: 'Demos', exact: true }).waitFor();

    const team = page.waitForRequest(/\/assets\/team-page-[\w-]+\.js$/);
    await page.getByRole('link', { name: 'Team' }).hover();
    await team;

    // A slow page: the list stays, with no spinner in its place, until the settings have come.
    const slow = await holdRequests(page, /\/assets\/settings-layout-[\w-]+\.js$/);
    // A click from a script: no pointer over the link first, so nothing was fetched ahead.
    await page.evaluate(() => document.querySelector<HTMLAnchorElement>('a.nav-link[href="/settings"]')?.click());
    await slow.requested;
    expect(await page.getByRole('heading', { name: 'Demos', exact: true }).isVisible()).toBe(true);
    expect(await page.locator('.loading-block').count()).toBe(0);
    slow.release();
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
  });

  it('a page whose file a deploy removed says to reload, inside the navigation, and Reload brings it', async () => {
    for (const viewport of [
      { width: 1280, height: 900, name: 'desktop' },
      { width: 390, height: 844, name: 'phone' },
    ]) {
      const page = await open(viewport);
      await page.goto(`${server.url}/demos`);
      await page.getByRole('heading', { name: 'Demos', exact: true }).waitFor();
      // What the server answers for an asset it does not have, served in place of the editor's chunk.
      const gone = await page.request.get(`${server.url}/assets/demo-editor-page-0ld0ld0l.js`);
      expect(gone.status()).toBe(404);
      const status = gone.status();
      const body = await gone.body();
      await page.route(/\/assets\/demo-editor-page-[\w-]+\.js$/, (route) =>
        route.fulfill({ status, body, headers: { 'content-type': 'application/json' } }),
      );

      await page.getByRole('link', { name: /Ledgerly tour/ }).first().click();
      const alert = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
      await alert.waitFor();
      await page.screenshot({ path: `${SHOTS}/chunk-load-failed-${viewport.name}.png`, fullPage: true, animations: 'disabled' });
      expect(page.url()).toBe(`${server.url}/demos/${demoId}`);
      if (viewport.name === 'desktop') {
        // The rest of the app is still there, and another page opens.
        await page.getByRole('link', { name: 'Team' }).click();
        await page.getByRole('heading', { name: 'Team', exact: true }).waitFor();
        expect(await alert.count()).toBe(0);
        await page.goBack();
        await alert.waitFor();
      }

      await page.unroute(/\/assets\/demo-editor-page-[\w-]+\.js$/);
      await page.getByRole('button', { name: 'Reload' }).click();
      await page.getByRole('textbox', { name: 'Demo title' }).waitFor();
    }
  });

  it('a sign-in page that cannot load says to reload rather than staying blank', async () => {
    const context = await browser!.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.route(/\/assets\/login-page-[\w-]+\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto(`${server.url}/login`);
    await page.getByRole('alert').filter({ hasText: 'This page could not be loaded' }).waitFor();
    await page.getByRole('button', { name: 'Reload' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/chunk-load-failed-sign-in-phone.png`, animations: 'disabled' });
  });

  it('hashed files are cached for good, the page that names them never, and a missing one is a 404, not the page', async () => {
    const html = await fetch(`${server.url}/login`);
    expect(html.headers.get('cache-control')).toBe('no-cache');
    const entry = (await html.text()).match(/src="(\/assets\/index-[\w-]+\.js)"/)?.[1];
    expect(entry).toBeDefined();
    const script = await fetch(server.url + entry);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const index = await fetch(`${server.url}/index.html`);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const gone = await fetch(`${server.url}/assets/demos-page-0ld0ld0l.js`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).not.toContain('text/html');
  });
});
