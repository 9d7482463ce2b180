import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { makeMockupPng } from '../helpers/images';
import { startTestServer, type TestServer } from '../helpers/server';
import { bearer } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

// A first run on another port, or a server reached by its IP or another name: APP_URL then names an
// address that is not the one in the viewer's address bar (here it is the stale default, :3000). The
// player must still load every step from the server it was opened on.
describe.skipIf(!browser)('the player through a host name that is not APP_URL (Chromium)', () => {
  let server: TestServer;
  let key: string;
  let shareUrl: string;
  const contexts: BrowserContext[] = [];

  const api = async (method: 'POST' | 'PATCH', url: string, payload: object | Buffer, headers: Record<string, string> = {}) => {
    const res = await server.app.inject({ method, url: `/v1${url}`, headers: { ...bearer(key), ...headers }, payload });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };

  beforeAll(async () => {
    server = await startTestServer({ host: '127.0.0.2', config: { APP_URL: 'http://localhost:3000' } });
    mkdirSync(SHOTS, { recursive: true });
    key = await server.apiKey('all');
    const demo = await api('POST', '/demos', { title: 'Reached by another name', type: 'interactive' });
    for (const colour of [[14, 147, 132], [200, 80, 40]]) {
      const step = await api('POST', `/demos/${demo.id}/steps`, makeMockupPng(1280, 800, colour as [number, number, number]), {
        'content-type': 'image/png',
      });
      await api('POST', `/demos/${demo.id}/steps/${step.id}/hotspots`, {
        x: 0.3,
        y: 0.3,
        width: 0.1,
        height: 0.08,
        label: 'Go on',
        action: { type: 'next' },
      });
    }
    await api('PATCH', `/demos/${demo.id}`, { status: 'published' });
    const share = await api('POST', `/demos/${demo.id}/shares`, { name: 'Anyone' });
    // The link itself names APP_URL, as configured; the viewer opens the same path on the address that works.
    expect(share.url).toMatch(/^http:\/\/localhost:3000\/s\//);
    shareUrl = server.url + new URL(share.url).pathname;
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  it('loads the steps from the address it was opened on, with nothing blocked by the page’s policy', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Failed to load/i.test(message.text())) refused.push(message.text());
    });
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });

    await page.goto(shareUrl);
    await page.locator('.ds-count', { hasText: 'Step 1 of 2' }).waitFor();
    const image = page.locator('img').first();
    await image.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector('img');
      return img?.complete && img.naturalWidth > 0;
    });
    expect(new URL(await image.evaluate((img) => (img as HTMLImageElement).currentSrc)).origin).toBe(server.url);
    await page.getByRole('button', { name: 'Go on' }).first().click();
    await page.locator('.ds-count', { hasText: 'Step 2 of 2' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/player-other-host.png`, animations: 'disabled' });
    expect(failed).toEqual([]);
    expect(refused).toEqual([]);
  });
});
