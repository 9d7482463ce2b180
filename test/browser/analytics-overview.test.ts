import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps, viewerClient } from '../helpers/shares';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

// The Analytics page is the workspace overview: its figures and busiest demos, at desktop and phone width.
describe.skipIf(!browser)('the workspace analytics overview (Chromium)', () => {
  let server: TestServer;
  let admin: TestSession;

  beforeAll(async () => {
    server = await startTestServer();
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the views of every demo and links the busiest to their own analytics', async () => {
    const key = await server.apiKey('all', admin);
    const busy = await demoWithSteps(server, key, 2);
    const quiet = await demoWithSteps(server, key, 2);
    for (const [demoId, n] of [
      [busy, 3],
      [quiet, 1],
    ] as const) {
      const link = await createShare(server, key, demoId);
      for (let i = 0; i < n; i++) {
        const v = viewerClient(server, link.token, `198.51.100.${i + 1}`);
        await v.call('GET', '');
        await v.call('POST', '/identify', { name: 'Ana', email: `ana${i}@globex.com` });
        const events = [{ id: randomUUID(), type: 'view_started' }, { id: randomUUID(), type: 'completed', seconds_on_previous: 4 }];
        expect((await v.call('POST', '/events', { events })).statusCode).toBe(202);
      }
    }
    for (const [width, height, name] of [
      [1280, 900, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      const { context, page } = await signedInPage(browser!, server.url, admin, { width, height });
      await page.goto(`${server.url}/analytics`);
      const top = page.getByRole('region', { name: 'Top demos' });
      await page.getByRole('heading', { name: 'Top demos' }).waitFor();
      await page.screenshot({ path: `${SHOTS}/analytics-overview-${name}.png`, fullPage: true });
      await expect.poll(() => top.locator('tbody tr').count()).toBe(2);
      expect(await top.locator('tbody tr').first().textContent()).toContain('3');
      await expect.poll(() => page.getByText('2 demos viewed in this period.').count()).toBe(1);
      expect(await page.locator('.figure-value').first().textContent()).toBe('4');
      await page.screenshot({ path: `${SHOTS}/analytics-overview-${name}.png`, fullPage: true });
      if (name === 'desktop') {
        await top.getByRole('link').first().click();
        await page.waitForURL(new RegExp(`/demos/${busy}/analytics`));
      }
      await context.close();
    }
  }, 90_000);
});
