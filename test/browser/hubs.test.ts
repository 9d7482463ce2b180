// A demo hub in Chromium at 1280 and 390 px: through its gate (password + lead form), the cards by
// collection, search as you type, a demo played in the overlay without meeting the link's gate, back to the
// hub; the embed before consent (no cookie, no storage) and the views counted for the hub.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { makePng } from '../helpers/images';
import { seedHub } from '../helpers/hubs';
import { startTestServer, type TestServer } from '../helpers/server';
import { bearer, keyData, type TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const PASSWORD = 'harbour-lights';
const COVERS: [number, number, number][] = [
  [37, 99, 235],
  [234, 88, 12],
  [22, 163, 74],
];
const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('a demo hub (Chromium)', () => {
  let server: TestServer;
  let admin: TestSession;
  let key: string;
  let hub: { id: string; url: string; embed_url: string };
  const contexts: BrowserContext[] = [];
  const after: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    server = await startTestServer({ selfUrl: true });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    key = await server.apiKey('all', admin);
    await admin.inject({ method: 'PATCH', url: '/v1/workspace', payload: { name: 'Acme', branding: { brand_color: '#0f766e' } } });
    const seeded = await seedHub(server, key, {
      hub: {
        name: 'Acme demo center',
        intro: 'Short interactive tours of the Acme platform: click through at your own pace.',
        cta_label: 'Book a demo',
        cta_url: 'https://example.com/book',
        password: PASSWORD,
        lead_fields: ['company'],
      },
      collections: [
        {
          name: 'Getting started',
          entries: [
            { title: 'Create your first invoice', description: 'From a customer to a sent invoice in six clicks.' },
            { title: 'Invite your team', description: 'Roles, seats and single sign-on.' },
          ],
        },
        { name: 'Reporting', entries: [{ title: 'Revenue dashboard', description: 'Build a board your CFO will read.' }] },
      ],
    });
    hub = seeded.hub;
    for (const [i, entry] of seeded.entries.entries()) {
      const put = await server.app.inject({
        method: 'PUT',
        url: `/v1/hubs/${hub.id}/entries/${entry.id}/cover`,
        headers: { ...bearer(key), 'content-type': 'image/png' },
        payload: makePng(320, 180, COVERS[i]!),
      });
      expect(put.statusCode, put.body).toBe(200);
    }
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    for (const a of after) await a();
    await browser?.close();
    await server?.close();
  });

  async function viewerPage(width: number, height: number, isMobile = false): Promise<Page> {
    const context = await browser!.newContext({ viewport: { width, height }, isMobile, hasTouch: isMobile });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  }

  async function passGate(page: Page, name: string) {
    await page.getByRole('heading', { name: 'Acme demo center' }).waitFor();
    await page.getByLabel('Password').fill('wrong');
    await page.getByLabel('Your name').fill(name);
    await page.getByLabel('Work e-mail').fill(`${name.toLowerCase()}@example.com`);
    await page.getByLabel('Company').fill('Example Ltd');
    await page.getByRole('button', { name: 'View demos' }).click();
    await page.getByText('That password is not correct').waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'View demos' }).click();
    await page.getByRole('tab', { name: 'Reporting' }).waitFor();
  }

  for (const [width, height, label] of [
    [1280, 860, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    it(`at ${width} px: gate, cards, search, a demo in the overlay with no second gate, back to the hub`, async () => {
      const page = await viewerPage(width, height, width < 600);
      await page.goto(hub.url);
      await page.getByLabel('Password').waitFor();
      await page.screenshot({ path: `${SHOTS}/hub-gate-${label}.png` });
      expect(await overflowing(page)).toEqual([]);
      await passGate(page, label === 'phone' ? 'Pat' : 'Dana');
      // Covers loaded, then the hub at rest.
      await page.waitForFunction(() => document.querySelectorAll('.hub-cover.has-image').length === 3);
      await page.screenshot({ path: `${SHOTS}/hub-${label}.png`, fullPage: true });
      expect(await overflowing(page)).toEqual([]);
      expect(await page.locator('.hub-card').count()).toBe(3);

      // Search filters as one types; the tabs pick a collection.
      await page.getByRole('searchbox', { name: 'Search demos' }).pressSequentially('dashb');
      await expect.poll(() => page.locator('.hub-card').count()).toBe(1);
      await page.getByRole('searchbox', { name: 'Search demos' }).fill('zebra');
      await page.getByText('No demos match “zebra”.').waitFor();
      await page.getByRole('searchbox', { name: 'Search demos' }).fill('');
      await page.getByRole('tab', { name: 'Getting started' }).click();
      await expect.poll(() => page.locator('.hub-card').count()).toBe(2);
      await page.getByRole('tab', { name: 'All' }).click();

      // The demo plays in the overlay: the link's own gate (same password) is not shown again.
      await page.getByRole('button', { name: 'Open demo: Revenue dashboard' }).click();
      const player = page.frameLocator('iframe.hub-frame');
      await player.getByRole('button', { name: 'Click 1' }).waitFor();
      expect(await player.locator('input[type=password]').count()).toBe(0);
      await page.screenshot({ path: `${SHOTS}/hub-overlay-${label}.png` });
      // A second demo: still no gate. The browser's back closes the overlay.
      await page.getByRole('button', { name: 'All demos' }).click();
      await page.locator('.hub-overlay').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Open demo: Invite your team' }).click();
      await page.frameLocator('iframe.hub-frame').getByRole('button', { name: 'Click 1' }).waitFor();
      await page.goBack();
      await page.locator('.hub-overlay').waitFor({ state: 'detached' });
      expect(await page.locator('.hub-card').count()).toBe(3);
    });
  }

  it('embeds with consent pending: no cookie and no storage until granted; the visits and opens count for the hub', async () => {
    const before = await keyData(server, key, 'GET', `/hubs/${hub.id}/analytics`);
    const context = await browser!.newContext({ viewport: { width: 1000, height: 800 } });
    contexts.push(context);
    // Records every reach for storage or document.cookie, in every frame, before any page script runs.
    await context.addInitScript(() => {
      const touched: string[] = [];
      (window as unknown as { __touched: string[] }).__touched = touched;
      for (const name of ['localStorage', 'sessionStorage', 'indexedDB'] as const) {
        const desc = Object.getOwnPropertyDescriptor(window, name);
        if (!desc?.get) continue;
        Object.defineProperty(window, name, {
          configurable: true,
          get: () => {
            touched.push(name);
            return desc.get!.call(window);
          },
        });
      }
      const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
      if (cookie?.get && cookie.set) {
        Object.defineProperty(Document.prototype, 'cookie', {
          configurable: true,
          get() {
            touched.push('cookie');
            return cookie.get!.call(this);
          },
          set(value: string) {
            touched.push('cookie');
            cookie.set!.call(this, value);
          },
        });
      }
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    // A host page on another site (localhost is not 127.0.0.1 to the browser).
    const hostServer: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Host</title><h1>Our product</h1>
<iframe id="f" src="${hub.embed_url}?consent=pending" title="Demos" style="width:960px;height:720px;border:0"></iframe>`);
    });
    await new Promise<void>((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
    after.push(() => new Promise<void>((resolve) => hostServer.close(() => resolve())));
    await page.goto(`http://localhost:${(hostServer.address() as AddressInfo).port}/`);
    const hubFrame = page.frameLocator('#f');
    await hubFrame.getByLabel('Password').fill(PASSWORD);
    await hubFrame.getByLabel('Your name').fill('Eve');
    await hubFrame.getByLabel('Work e-mail').fill('eve@example.com');
    await hubFrame.getByLabel('Company').fill('Embedded Inc');
    await hubFrame.getByRole('button', { name: 'View demos' }).click();
    await hubFrame.getByRole('button', { name: 'Open demo: Create your first invoice' }).click();
    await hubFrame.frameLocator('iframe.hub-frame').getByRole('button', { name: 'Click 1' }).waitFor();
    expect(await context.cookies()).toEqual([]);
    // The hub page itself never reached for storage or document.cookie (the player's own rule is the
    // consent tests'; its cookies are in context.cookies() above: none).
    const hubPage = page.frames().find((f) => f.url().includes('/embed/h/'))!;
    expect(await hubPage.evaluate(() => (window as unknown as { __touched: string[] }).__touched)).toEqual([]);
    // The control: the same probe sees a page that does use storage.
    await hubPage.evaluate(() => {
      try {
        sessionStorage.getItem('x');
      } catch {}
    });
    expect(await hubPage.evaluate(() => (window as unknown as { __touched: string[] }).__touched)).toEqual(['sessionStorage']);

    const figures = await keyData(server, key, 'GET', `/hubs/${hub.id}/analytics`);
    expect(figures.visits).toBe(before.visits + 1);
    expect(figures.demos_opened).toBe(before.demos_opened + 1);
    expect(figures.identified_visitors).toBe(before.identified_visitors + 1);
    expect(figures.recent_visitors.map((v: { email: string }) => v.email)).toContain('eve@example.com');
  });

  for (const [width, label] of [
    [1280, 'desktop'],
    [390, 'phone'],
  ] as const) {
    it(`the web app's Hubs list and editor at ${width} px: share and embed code, demos, access, analytics`, async () => {
      const { context, page } = await signedInPage(browser!, server.url, admin, { width, height: 900 });
      contexts.push(context);
      await page.goto(`${server.url}/hubs`);
      await page.getByRole('link', { name: 'Acme demo center' }).waitFor();
      await page.screenshot({ path: `${SHOTS}/hubs-list-${label}.png` });
      expect(await overflowing(page)).toEqual([]);
      await page.getByRole('link', { name: 'Acme demo center' }).click();
      await page.getByRole('heading', { name: 'Share and embed' }).waitFor();
      expect(await page.getByRole('textbox', { name: 'Hub link' }).inputValue()).toBe(hub.url);
      expect(await page.getByRole('textbox', { name: 'Embed code, cookies only after consent' }).inputValue()).toContain(`${hub.embed_url}?consent=pending`);
      await page.getByRole('heading', { name: 'Analytics' }).waitFor();
      await page.locator('.hub-figure').first().waitFor();
      expect(await overflowing(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/hub-editor-${label}.png`, fullPage: true });
      if (label === 'desktop') {
        // A card's text edited in place reaches the hub page.
        const text = page.getByLabel('Card text').first();
        await text.fill('Six clicks, one invoice.');
        await text.blur();
        await page.getByText('Card text saved').waitFor();
        const detail = await keyData(server, key, 'GET', `/hubs/${hub.id}`);
        expect(detail.collections[0].entries[0].description).toBe('Six clicks, one invoice.');
        // In the demo's share dialog, the entry's link is marked as the hub's and managed there, not edited or revoked.
        await page.goto(`${server.url}/demos/${detail.collections[0].entries[0].demo_id}`);
        await page.getByRole('button', { name: 'Share' }).click();
        const row = page.locator('.share-row', { has: page.getByText('Hub entry') }).first();
        await row.waitFor();
        expect(await row.getByRole('button', { name: /^Edit / }).count()).toBe(0);
        expect(await row.getByRole('button', { name: /^Revoke / }).count()).toBe(0);
        await page.screenshot({ path: `${SHOTS}/share-dialog-hub-entry-${label}.png`, animations: 'disabled' });
        await row.getByRole('link', { name: /on its hub$/ }).click();
        await page.waitForURL(`${server.url}/hubs/${hub.id}`);
        await page.getByRole('heading', { name: 'Share and embed' }).waitFor();
      }
    });
  }
});
