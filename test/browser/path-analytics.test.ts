import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { playPathViews, storyVersion } from '../helpers/path-demo';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps } from '../helpers/shares';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

// An interactive demo's path figures on its analytics page: chapter choices and per-chapter funnels, paths,
// calls to action and branches, form conversion, their CSV files; at desktop and phone width.
describe.skipIf(!browser)('a demo’s analytics by path (Chromium)', () => {
  let server: TestServer;
  let admin: TestSession;
  let key: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer({ config: { VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000 } });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    key = await server.apiKey('all', admin);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  it('shows chapters, their funnels, paths, calls to action, branches and forms, and exports them', async () => {
    const demoId = await demoWithSteps(server, key, 4);
    const link = await createShare(server, key, demoId, { name: 'Q4 evaluation', variables: { company: 'Acme', first_name: 'Dana' } });
    const { hotspot2 } = await storyVersion(server, demoId);
    await playPathViews(server, link.token, hotspot2);

    const { context, page } = await signedInPage(browser!, server.url, admin);
    contexts.push(context);
    await page.goto(`${server.url}/demos/${demoId}/analytics`);
    const chapters = page.getByRole('list', { name: 'Chapter choices' });
    await chapters.waitFor();
    expect(await chapters.locator('li').allTextContents()).toEqual([
      expect.stringMatching(/Invoicing.*2 chose it \(66\.7%\).*50% finished it/),
      expect.stringMatching(/Reports.*1 chose it \(33\.3%\).*100% finished it/),
    ]);
    const invoicing = page.getByRole('list', { name: 'Invoicing: step funnel' });
    expect(await invoicing.locator('li').allTextContents()).toEqual([
      expect.stringMatching(/Step 2.*2 reached \(100%\)/),
      expect.stringMatching(/Step 3.*1 reached \(50%\)/),
    ]);
    const paths = page.getByRole('table', { name: 'Views per path of chapters' });
    expect(await paths.locator('tbody tr').first().locator('td').allTextContents()).toEqual(['Invoicing', '1', '33.3%']);
    expect(await paths.locator('tbody tr').nth(1).locator('td').allTextContents()).toEqual(['Invoicing → Reports', '1', '33.3%']);

    const ctas = page.getByRole('table', { name: 'Calls to action' });
    expect(await ctas.locator('tbody tr').first().locator('td').allTextContents()).toEqual(['Book a call', '4', '2', '1', '100%']);
    const branches = page.getByRole('table', { name: 'Hotspots and buttons used' });
    expect(await branches.locator('tbody tr').count()).toBe(2);
    expect(await branches.locator('tbody tr', { hasText: 'pick' }).count()).toBe(0);
    expect(await branches.locator('tbody tr').first().locator('td').allTextContents()).toEqual(['Invoicing', '1', 'chapter → Invoicing', '1', '1', '33.3%']);
    expect(await branches.locator('tbody tr', { hasText: 'Click 2' }).locator('td').allTextContents()).toEqual(['Click 2', '2', 'goto → step 3', '1', '1', '50%']);

    const form = page.getByRole('list', { name: /Step 3 · Step 3: 50% conversion/ });
    expect(await form.locator('li').allTextContents()).toEqual([
      expect.stringMatching(/Shown.*2 viewers \(100%\)/),
      expect.stringMatching(/Started.*1 viewer \(50%\)/),
      expect.stringMatching(/Submitted.*1 viewer \(50%\)/),
    ]);

    // A personalised link says which account watched: in the per-link table and beside each viewer.
    const linkRow = page.getByRole('table', { name: 'Views per share link' }).locator('tbody tr').first();
    expect((await linkRow.locator('td').first().textContent()) ?? '').toContain('company: Acme · first_name: Dana');
    const viewerRows = page.getByRole('table', { name: 'Recent viewers' }).locator('tbody tr');
    expect(await viewerRows.first().locator('td[data-label="Link"]').textContent()).toBe('Q4 evaluation (Acme)');

    const csvOf = async (region: string) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('region', { name: region }).getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      return readFileSync((await download.path())!, 'utf8').trim().split(/\r?\n/);
    };
    const chaptersCsv = await csvOf('Chapters');
    expect(chaptersCsv[0]).toBe('chapter_id,chapter,choices,views,choice_rate,completed,completion_rate,demo_completions,funnel_step,step_title,step_views,step_share');
    expect(chaptersCsv).toHaveLength(4);
    const clicksCsv = await csvOf('Calls to action and branches');
    expect(clicksCsv[1]).toBe('cta,4,book-call,Book a call,book_meeting,,2,1,1');
    const formsCsv = await csvOf('Forms');
    expect(formsCsv).toEqual(['step,title,shown,started,submitted,start_rate,conversion', '3,Step 3,2,1,1,0.5,0.5']);
    await page.screenshot({ path: `${SHOTS}/analytics-paths-desktop.png`, fullPage: true, animations: 'disabled' });

    const phone = await signedInPage(browser!, server.url, admin, { width: 390, height: 844 });
    contexts.push(phone.context);
    await phone.page.goto(`${server.url}/demos/${demoId}/analytics`);
    await phone.page.getByRole('list', { name: 'Chapter choices' }).waitFor();
    expect(await overflowing(phone.page)).toEqual([]);
    await phone.page.screenshot({ path: `${SHOTS}/analytics-paths-phone.png`, fullPage: true, animations: 'disabled' });
  });

  it('leaves a linear demo’s page as it was: no path cards without path events', async () => {
    const demoId = await demoWithSteps(server, key, 2);
    const { context, page } = await signedInPage(browser!, server.url, admin);
    contexts.push(context);
    await page.goto(`${server.url}/demos/${demoId}/analytics`);
    await page.getByRole('list', { name: 'Viewers reaching each step' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Chapters' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Forms' }).count()).toBe(0);
  });
});
