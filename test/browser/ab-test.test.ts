import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps, playView, viewerClient } from '../helpers/shares';
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

  it('lists the link’s earlier tests below the current one, each opening its results read-only, at 1280 and 390 px', async () => {
    const a = await namedDemo('Classic tour');
    const b = await namedDemo('Guided tour');
    const c = await namedDemo('Video tour');
    const link = await createShare(server, key, a, { name: 'Homepage' });
    const start = async (name: string, demos: string[], shareId = link.id) => {
      const res = await call('POST', `/v1/shares/${shareId}/experiment`, { name, arms: demos.map((demo_id) => ({ demo_id, weight: 1 })) });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { id: string; arms: Array<{ id: string }> };
    };
    const stop = async (winner: string | null, shareId = link.id) =>
      expect((await call('POST', `/v1/shares/${shareId}/experiment/stop`, { winner_arm_id: winner })).statusCode).toBe(200);
    // Another link with eight tests one after another, for the pages of the list.
    const rounds = await createShare(server, key, a, { name: 'Rounds' });
    for (let i = 1; i <= 8; i++) {
      await start(`Round ${i}`, [a, b], rounds.id);
      if (i < 8) await stop(null, rounds.id);
    }

    // The first test has a clear winner: viewers of the guided tour finish two times in three, the classic one's one in five.
    const first = await start('Classic vs guided', [a, b]);
    const perArm = new Map<string, number>();
    for (let i = 0; i < 400 && ['Classic tour', 'Guided tour'].some((title) => (perArm.get(title) ?? 0) < 110); i++) {
      const v = viewerClient(server, link.token, `10.${Math.floor(i / 250)}.${i % 250}.9`);
      expect((await v.call('GET', '')).statusCode).toBe(200);
      const title = (await v.call('GET', '/demo')).json().data.title as string;
      const n = (perArm.get(title) ?? 0) + 1;
      perArm.set(title, n);
      const done = title === 'Guided tour' ? n % 3 !== 0 : n % 5 === 0;
      const events: object[] = [{ id: randomUUID(), type: 'view_started' }, { id: randomUUID(), type: 'step_reached', step_number: 2, seconds_on_previous: 3 }];
      if (done) events.push({ id: randomUUID(), type: 'completed', seconds_on_previous: 2 });
      expect((await v.call('POST', '/events', { events })).statusCode).toBe(202);
    }
    await stop(first.arms[1]!.id);
    const firstResults = (await call('GET', `/v1/shares/${link.id}/experiments/${first.id}/results`)).json().data;
    expect(firstResults.significance).toMatchObject({ verdict: 'winner', winner_arm_id: first.arms[1]!.id });
    // The second one, a handful of viewers, stopped keeping no arm; the third runs.
    await start('Classic vs video', [a, c]);
    for (let i = 0; i < 6; i++) await playView(server, link.token, { reached: 2, complete: i % 2 === 0, ip: `198.51.100.${i + 40}` });
    await stop(null);
    await start('Video vs guided', [c, b]);

    const { context, page } = await signedInPage(browser!, server.url, admin);
    contexts.push(context);
    await page.goto(`${server.url}/demos/${a}`);
    await page.getByRole('button', { name: 'Share Classic tour' }).click();
    await page.getByRole('button', { name: 'A/B test of Homepage' }).click();
    await page.getByRole('region', { name: 'A/B test results' }).getByRole('heading', { name: 'Video vs guided' }).waitFor();
    const earlier = page.getByRole('list', { name: 'Earlier tests' });
    await earlier.waitFor();
    // Newest first, each with its arms, the arm kept and its verdict; the running test is not among them.
    const rows = earlier.getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(2);
    const texts = await rows.allInnerTexts();
    expect(texts[0]).toContain('Classic vs video');
    expect(texts[0]).toContain('Classic tour vs Video tour');
    expect(texts[0]).toContain('No arm kept');
    expect(texts[0]).toContain('Too small a sample');
    expect(texts[1]).toContain('Classic vs guided');
    expect(texts[1]).toContain('Kept “Guided tour”');
    expect(texts[1]).toContain('“Guided tour” won');
    await earlier.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/ab-earlier-1280.png`, animations: 'disabled' });

    // The first test's results, read-only: its figures as the API gives them, no button that would change anything.
    await rows.nth(1).getByRole('button', { name: /^Results of Classic vs guided/ }).click();
    const past = page.getByRole('region', { name: 'Earlier A/B test results' });
    await past.getByRole('heading', { name: 'Classic vs guided' }).waitFor();
    await page.getByText('the link served “Guided tour” until the next test started').waitFor();
    await past.getByText('A winner').waitFor();
    const views = await past.locator('.ab-figures div:first-child dd').allTextContents();
    expect(views).toEqual(firstResults.arms.map((x: { views: number }) => String(x.views)));
    expect(await past.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Stop|Remove|New A\/B test/ }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/ab-earlier-results-1280.png`, animations: 'disabled' });

    // At phone width: nothing wider than the window, the list and the results alike.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/ab-earlier-results-390.png`, animations: 'disabled' });
    await page.getByRole('button', { name: 'Back to the current test' }).click();
    await earlier.waitFor();
    await page.getByRole('region', { name: 'A/B test results' }).getByRole('button', { name: 'Stop without a winner' }).waitFor();
    expect(await overflowing(page)).toEqual([]);
    await earlier.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/ab-earlier-390.png`, animations: 'disabled' });

    // Seven earlier tests: the first page holds the running one and four before it, the second the three oldest.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Close', exact: true }).last().click();
    await page.getByRole('button', { name: 'A/B test of Rounds' }).click();
    await page.getByRole('region', { name: 'A/B test results' }).getByRole('heading', { name: 'Round 8' }).waitFor();
    const names = () => earlier.locator('.ab-earlier-text > .cell-strong').allTextContents();
    await expect.poll(names).toEqual(['Round 7', 'Round 6', 'Round 5', 'Round 4']);
    const pages = page.getByRole('navigation', { name: 'Earlier tests pages' });
    await pages.getByText('Page 1 of 2').waitFor();
    await pages.getByRole('button', { name: 'Next' }).click();
    await expect.poll(names).toEqual(['Round 3', 'Round 2', 'Round 1']);
    await pages.getByText('Page 2 of 2').waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflowing(page)).toEqual([]);
  }, 300_000);

  it('deletes an earlier test from the list after asking, and shows the refusal when it has become the newest, at 1280 and 390 px', async () => {
    const a = await namedDemo('Tour one');
    const b = await namedDemo('Tour two');
    const link = await createShare(server, key, a, { name: 'Trial page' });
    const start = async (name: string) => {
      const res = await call('POST', `/v1/shares/${link.id}/experiment`, { name, arms: [{ demo_id: a, weight: 1 }, { demo_id: b, weight: 1 }] });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { id: string; arms: Array<{ id: string }> };
    };
    const stop = async (winner: string | null) =>
      expect((await call('POST', `/v1/shares/${link.id}/experiment/stop`, { winner_arm_id: winner })).statusCode).toBe(200);
    const listed = async () => ((await call('GET', `/v1/shares/${link.id}/experiments`)).json().data as Array<{ name: string }>).map((x) => x.name);
    const first = await start('First try');
    await stop(first.arms[1]!.id);
    await start('Second try');
    await stop(null);
    await start('Third try');

    const { context, page } = await signedInPage(browser!, server.url, admin);
    contexts.push(context);
    await page.goto(`${server.url}/demos/${a}`);
    await page.getByRole('button', { name: 'Share Tour one' }).click();
    await page.getByRole('button', { name: 'A/B test of Trial page' }).click();
    await page.getByRole('region', { name: 'A/B test results' }).getByRole('heading', { name: 'Third try' }).waitFor();
    const earlier = page.getByRole('list', { name: 'Earlier tests' });
    const names = () => earlier.locator('.ab-earlier-text > .cell-strong').allTextContents();
    await expect.poll(names).toEqual(['Second try', 'First try']);

    // Asked first: Cancel keeps it.
    await earlier.getByRole('button', { name: /^Delete First try, started/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete “First try”?' });
    await confirm.getByText('its figures are gone for good').waitFor();
    await page.screenshot({ path: `${SHOTS}/ab-earlier-delete-1280.png`, animations: 'disabled' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await listed()).toEqual(['Third try', 'Second try', 'First try']);

    // Confirmed: gone from the list and from the API; the current test stays on top.
    await earlier.getByRole('button', { name: /^Delete First try, started/ }).click();
    await confirm.getByRole('button', { name: 'Delete the test' }).click();
    await page.getByText('Earlier A/B test deleted').waitFor();
    await expect.poll(names).toEqual(['Second try']);
    expect(await listed()).toEqual(['Third try', 'Second try']);
    await page.getByRole('region', { name: 'A/B test results' }).getByRole('heading', { name: 'Third try' }).waitFor();

    // At phone width: the list and the question fit. Meanwhile the newest is removed through the API, so the one
    // asked about has become the link's current test: the API's refusal is shown in place and nothing is deleted.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflowing(page)).toEqual([]);
    await earlier.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/ab-earlier-delete-list-390.png`, animations: 'disabled' });
    await earlier.getByRole('button', { name: /^Delete Second try, started/ }).click();
    const again = page.getByRole('dialog', { name: 'Delete “Second try”?' });
    await again.waitFor();
    expect(await overflowing(page)).toEqual([]);
    expect((await call('DELETE', `/v1/shares/${link.id}/experiment`)).statusCode).toBe(204);
    await again.getByRole('button', { name: 'Delete the test' }).click();
    await again.getByText(/this test has become the link’s current one/).waitFor();
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/ab-earlier-delete-refused-390.png`, animations: 'disabled' });
    expect(await listed()).toEqual(['Second try']);
    await again.getByRole('button', { name: 'Cancel' }).click();
  }, 180_000);

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
