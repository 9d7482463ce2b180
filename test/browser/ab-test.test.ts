import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps, playView } from '../helpers/shares';
import { bearer, type TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

// An A/B link in real Chromium: fresh viewers split between the arms, each kept on its arm when they come back;
// then the owner reads the results in the web app (1280 and 390 px) and stops the test keeping an arm.
describe.skipIf(!browser)('an A/B test link (Chromium)', () => {
  let server: TestServer;
  let admin: TestSession;
  let key: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer({ config: { VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000, RATE_LIMIT_PER_MINUTE: 1_000_000 } });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    key = await server.apiKey('all', admin);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  const call = (method: string, url: string, payload?: object) =>
    server.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });

  async function namedDemo(title: string) {
    const id = await demoWithSteps(server, key, 2, false);
    expect((await call('PATCH', `/v1/demos/${id}`, { title, status: 'published' })).statusCode).toBe(200);
    return id;
  }

  /** A fresh browser (no cookie, no storage) opening the link: the title of the demo it is shown. */
  async function freshViewer(url: string): Promise<{ context: BrowserContext; page: Page; title: string }> {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(url);
    const title = (await page.locator('.ds-title').textContent()) ?? '';
    return { context, page, title };
  }

  it('splits fresh viewers between the arms, keeps each on its arm on return, and shows the results', async () => {
    const a = await namedDemo('Short tour');
    const b = await namedDemo('Full tour');
    const link = await createShare(server, key, a, { name: 'Pricing page' });
    const started = await call('POST', `/v1/shares/${link.id}/experiment`, {
      name: 'Short vs full',
      arms: [{ demo_id: a, weight: 1 }, { demo_id: b, weight: 1 }],
    });
    expect(started.statusCode, started.body).toBe(201);
    const url = `${server.url}/s/${link.token}`;

    const counts = new Map<string, number>();
    const returning: Array<{ context: BrowserContext; page: Page; title: string }> = [];
    // Fresh browsers until two of each arm have come (the split's proportions are checked over HTTP with many
    // viewers in test/experiments.test.ts; here it is the real browser's cookie that keeps a viewer on an arm).
    // Each arm is a fair coin: fewer than two of 24 viewers on one arm is a 1-in-335,000 draw.
    for (let i = 0; i < 24 && ['Short tour', 'Full tour'].some((t) => (counts.get(t) ?? 0) < 2); i++) {
      const viewer = await freshViewer(url);
      expect(['Short tour', 'Full tour']).toContain(viewer.title);
      counts.set(viewer.title, (counts.get(viewer.title) ?? 0) + 1);
      // The first two of each arm come back later; the others leave.
      if (returning.filter((r) => r.title === viewer.title).length < 2) returning.push(viewer);
      else await viewer.context.close();
    }
    contexts.push(...returning.map((r) => r.context));
    expect(counts.get('Short tour') ?? 0).toBeGreaterThanOrEqual(2);
    expect(counts.get('Full tour') ?? 0).toBeGreaterThanOrEqual(2);
    // Sticky on return: each comes back (a new page, the same browser) to the arm first shown.
    for (const r of returning) {
      const again = await r.context.newPage();
      await again.goto(url);
      expect(await again.locator('.ds-title').textContent()).toBe(r.title);
      await again.close();
    }
    // Every fresh viewer's view is counted on its arm (the player sends view_started on load).
    const results = async () => (await call('GET', `/v1/shares/${link.id}/experiment/results`)).json().data;
    await expect.poll(async () => (await results()).arms.map((x: { views: number }) => x.views), { timeout: 20_000 }).toEqual([
      counts.get('Short tour') ?? 0,
      counts.get('Full tour') ?? 0,
    ]);
    // More viewers through the API, some to the end, so the results have rates to show.
    for (let i = 0; i < 24; i++) await playView(server, link.token, { reached: 2, complete: i % 3 !== 0, ip: `198.51.100.${i + 1}` });
    const figures = await results();
    console.log('A/B split in Chromium', Object.fromEntries(counts), 'views per arm after the API viewers', figures.arms.map((x: { views: number }) => x.views));
    expect(figures.significance.verdict).toBe('too_small');

    // The results view in the web app, from the link's dialog.
    const { context, page } = await signedInPage(browser!, server.url, admin);
    contexts.push(context);
    await page.goto(`${server.url}/demos/${a}`);
    await page.getByRole('button', { name: 'Share Short tour' }).click();
    await page.getByRole('button', { name: 'A/B test of Pricing page' }).click();
    const section = page.getByRole('region', { name: 'A/B test results' });
    await section.waitFor();
    await section.getByText('Too early to call').waitFor();
    await section.getByText(/Method: Two-proportion z-test/).waitFor();
    const cards = section.getByRole('listitem');
    await expect.poll(() => cards.count()).toBe(2);
    const views = await section.locator('.ab-figures div:first-child dd').allTextContents();
    expect(views).toEqual(figures.arms.map((x: { views: number }) => String(x.views)));
    await page.screenshot({ path: `${SHOTS}/ab-results-1280.png`, animations: 'disabled' });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/ab-results-390.png`, animations: 'disabled' });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Stop and keep the full tour: every viewer gets it now, fresh or returning.
    await section.getByRole('button', { name: 'Stop and keep Full tour' }).click();
    await page.getByRole('button', { name: 'Stop the A/B test' }).click();
    await page.getByText('Every viewer now gets “Full tour”.').waitFor();
    await page.screenshot({ path: `${SHOTS}/ab-results-stopped-1280.png`, animations: 'disabled' });
    const onShort = returning.find((r) => r.title === 'Short tour')!;
    const back = await onShort.context.newPage();
    await back.goto(url);
    expect(await back.locator('.ds-title').textContent()).toBe('Full tour');
    const fresh = await freshViewer(url);
    contexts.push(fresh.context);
    expect(fresh.title).toBe('Full tour');
  }, 300_000);

  it('starts an A/B test from the link dialog, at phone width too', async () => {
    const a = await namedDemo('Onboarding tour');
    await namedDemo('Onboarding tour, short');
    await createShare(server, key, a, { name: 'Newsletter' });
    const { context, page } = await signedInPage(browser!, server.url, admin, { width: 390, height: 844 });
    contexts.push(context);
    await page.goto(`${server.url}/demos/${a}`);
    await page.getByRole('button', { name: 'Share Onboarding tour' }).click();
    await page.getByRole('button', { name: 'A/B test of Newsletter' }).click();
    const form = page.getByRole('form', { name: 'New A/B test' });
    await form.waitFor();
    // The second arm has no demo yet: the form says so and sends nothing.
    await form.getByRole('button', { name: 'Start the A/B test' }).click();
    await form.getByText('Choose a demo', { exact: true }).waitFor();
    await form.getByLabel('Arm 2: demo').selectOption({ label: 'Onboarding tour, short' });
    await form.getByLabel('Weight').nth(1).fill('3');
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/ab-form-390.png`, animations: 'disabled' });
    await form.getByRole('button', { name: 'Start the A/B test' }).click();
    const section = page.getByRole('region', { name: 'A/B test results' });
    await section.getByText('Weight 3 · 75%').waitFor();
    expect(await overflowing(page)).toEqual([]);
  }, 120_000);
});
