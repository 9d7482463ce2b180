import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps, playView } from '../helpers/shares';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

// A viewer plays a demo to its end through a share link; its owner then reads the view, the completion and
// the funnel on the demo's analytics page, at desktop and phone width.
describe.skipIf(!browser)('a demo’s analytics (Chromium)', () => {
  let server: TestServer;
  let admin: TestSession;
  let key: string;
  let demoId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer({ jobs: true });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    key = await server.apiKey('all', admin);
    demoId = await demoWithSteps(server, key, 3);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  it('shows a view played to the end: figures, completion, funnel, the viewer and their journey', async () => {
    const link = await createShare(server, key, demoId, { require_identification: true, name: 'Sent to Globex' });
    const viewerContext = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(viewerContext);
    const viewer = await viewerContext.newPage();
    viewer.setDefaultTimeout(15_000);
    await viewer.goto(link.url.replace('http://localhost:3000', server.url));
    await viewer.getByLabel('Your name').fill('Grace Hopper');
    await viewer.getByLabel('Work e-mail').fill('grace@globex.test');
    await viewer.getByRole('button', { name: 'View demo' }).click();
    for (let i = 0; i < 3; i++) {
      await viewer.locator('.ds-step-title', { hasText: `Step ${i + 1}` }).waitFor();
      await viewer.getByRole('button', { name: i < 2 ? 'Next' : /Next|Finish/ }).click();
    }
    await viewer.getByRole('heading', { name: 'You have reached the end' }).waitFor();
    // The player sends its events in batches: wait until the server has the completion.
    await expect
      .poll(async () => (await server.app.inject({ method: 'GET', url: `/v1/demos/${demoId}/views`, headers: { authorization: `Bearer ${key}` } })).json().data[0]?.completed, { timeout: 15_000 })
      .toBe(true);

    const { context, page } = await signedInPage(browser!, server.url, admin);
    contexts.push(context);
    await page.goto(`${server.url}/demos/${demoId}`);
    await page.locator('.editor-actions').getByRole('link', { name: 'Analytics' }).click();
    await page.waitForURL(`**/demos/${demoId}/analytics**`);
    const figure = (label: string) => page.locator('.figure', { has: page.locator('dt', { hasText: label }) }).locator('.figure-value');
    await expect.poll(() => figure('Views').textContent()).toBe('1');
    expect(await figure('Unique viewers').textContent()).toBe('1');
    expect(await figure('Completion rate').textContent()).toBe('100%');

    const funnel = page.getByRole('list', { name: 'Viewers reaching each step' });
    expect(await funnel.locator('li').count()).toBe(3);
    expect(await funnel.locator('li').first().textContent()).toContain('1 reached (100%)');

    const row = page.locator('table tbody tr', { hasText: 'Grace Hopper' });
    await row.waitFor();
    expect(await row.textContent()).toContain('globex.test');
    expect(await row.textContent()).toContain('3 of 3');
    expect(await row.textContent()).toContain('Yes');
    await page.locator('canvas').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/analytics-demo-desktop.png`, fullPage: true, animations: 'disabled' });

    await row.getByRole('button', { name: /Grace Hopper/ }).click();
    const journey = page.getByRole('dialog', { name: 'Grace Hopper' });
    await journey.waitFor();
    expect(await journey.locator('ol.journey li').count()).toBe(3);
    await page.screenshot({ path: `${SHOTS}/analytics-journey.png`, animations: 'disabled' });
    await page.keyboard.press('Escape');

    // The chart answers the keyboard and the numbers are there as a table too.
    await page.getByRole('img', { name: /Views and completions/ }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.locator('.chart-readout').textContent()).toMatch(/1 view, 1 completed/);
    await page.getByRole('button', { name: 'Show table' }).click();
    expect(await page.getByRole('table', { name: 'Views and completions' }).locator('tbody tr').count()).toBe(30);

    // Another range, chosen by preset, is in the address (bookmarkable).
    await page.getByRole('button', { name: '7 days' }).click();
    await page.waitForURL(/from=\d{4}-\d{2}-\d{2}&to=/);
    await expect.poll(() => page.getByRole('table', { name: 'Views and completions' }).locator('tbody tr').count()).toBe(7);

    const phone = await signedInPage(browser!, server.url, admin, { width: 390, height: 844 });
    contexts.push(phone.context);
    await phone.page.goto(`${server.url}/demos/${demoId}/analytics`);
    await phone.page.locator('.figure').first().waitFor();
    await phone.page.locator('canvas').first().waitFor();
    expect(await overflowing(phone.page)).toEqual([]);
    await phone.page.screenshot({ path: `${SHOTS}/analytics-demo-phone.png`, fullPage: true, animations: 'disabled' });
  });

  it('breaks views down by link and company, leaves the team’s own out unless asked, and follows a viewer across views', async () => {
    const demo = await demoWithSteps(server, key, 3);
    const globex = await createShare(server, key, demo, { name: 'Sent to Globex' });
    const initech = await createShare(server, key, demo, { name: 'Sent to Initech' });
    await playView(server, globex.token, { email: 'hedy@globex.test', name: 'Hedy Lamarr', reached: 3, complete: true });
    await playView(server, initech.token, { email: 'ian@initech.test', name: 'Ian Initech', reached: 3, complete: true });
    await playView(server, initech.token, { email: 'ivy@initech.test', name: 'Ivy Initech', reached: 1 });
    await playView(server, globex.token, { email: 'sam@gmail.com', name: 'Sam Solo', reached: 2 });
    await playView(server, initech.token, { email: 'hedy@globex.test', name: 'Hedy Lamarr', reached: 2 });
    // The admin tries the link while signed in: the team's own view.
    await playView(server, globex.token, { reached: 3, complete: true, member: admin });

    const { context, page } = await signedInPage(browser!, server.url, admin);
    contexts.push(context);
    await page.goto(`${server.url}/demos/${demo}/analytics`);
    const figure = (label: string) => page.locator('.figure', { has: page.locator('dt', { hasText: label }) }).locator('.figure-value');
    await expect.poll(() => figure('Views').textContent()).toBe('5');

    const links = page.getByRole('table', { name: 'Views per share link' });
    const linkRow = (name: string) => links.locator('tbody tr', { hasText: name });
    expect(await linkRow('Sent to Initech').locator('td').allTextContents()).toEqual(['Sent to Initech', '3', '3', '33.3%', expect.any(String)]);
    expect(await linkRow('Sent to Globex').locator('td').allTextContents()).toEqual(['Sent to Globex', '2', '2', '50%', expect.any(String)]);

    const companies = page.getByRole('table', { name: 'Identified viewers by company' });
    const companyRow = (name: string) => companies.locator('tbody tr', { hasText: name });
    expect((await companyRow('initech.test').locator('td').allTextContents()).slice(0, 4)).toEqual(['initech.test', '2', '2', '50%']);
    expect((await companyRow('globex.test').locator('td').allTextContents()).slice(0, 4)).toEqual(['globex.test', '1', '2', '50%']);
    expect((await companyRow('Individuals').locator('td').allTextContents()).slice(0, 4)).toEqual(['Individuals (personal e-mail)', '1', '1', '0%']);
    expect(await companies.locator('tbody tr').count()).toBe(3);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('region', { name: 'Companies' }).getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8').trim().split(/\r?\n/);
    expect(csv[0]).toBe('company,kind,viewers,views,completions,completion_rate,last_seen_at');
    expect(csv.slice(1).map((line) => line.split(',').slice(0, 5).join(','))).toEqual(
      expect.arrayContaining(['initech.test,company,2,2,1', 'globex.test,company,1,2,1', ',individuals,1,1,0']),
    );
    await page.screenshot({ path: `${SHOTS}/analytics-demo-breakdowns.png`, fullPage: true, animations: 'disabled' });

    // Hedy's journey names her other view, which opens in turn.
    const hedy = page.locator('table tbody tr', { hasText: 'Hedy Lamarr' }).first();
    await hedy.getByRole('button', { name: /Hedy Lamarr/ }).click();
    const journey = page.getByRole('dialog', { name: 'Hedy Lamarr' });
    await journey.getByRole('heading', { name: 'Their other views' }).waitFor();
    const firstSteps = await journey.locator('ol.journey li').count();
    expect(await journey.locator('.journey-list li').count()).toBe(1);
    await journey.locator('.journey-list li button').click();
    await expect.poll(() => journey.locator('ol.journey li').count()).toBe(firstSteps === 3 ? 2 : 3);
    expect(await journey.locator('ol.journey li').first().textContent()).toContain('Step 1');
    await page.screenshot({ path: `${SHOTS}/analytics-journey-others.png`, animations: 'disabled' });
    await page.keyboard.press('Escape');

    // The team's own view counts only when asked for, and the choice is in the address.
    // A click, not check(): the box follows the address, which the router updates a moment later.
    await page.getByLabel('Include team views').click();
    await page.waitForURL(/team=1/);
    await expect.poll(() => figure('Views').textContent()).toBe('6');
    await expect.poll(() => linkRow('Sent to Globex').locator('td').nth(1).textContent()).toBe('3');
    await page.reload();
    expect(await page.getByLabel('Include team views').isChecked()).toBe(true);
    await expect.poll(() => figure('Views').textContent()).toBe('6');

    const phone = await signedInPage(browser!, server.url, admin, { width: 390, height: 844 });
    contexts.push(phone.context);
    await phone.page.goto(`${server.url}/demos/${demo}/analytics`);
    await phone.page.getByRole('table', { name: 'Identified viewers by company' }).waitFor();
    expect(await overflowing(phone.page)).toEqual([]);
    await phone.page.screenshot({ path: `${SHOTS}/analytics-demo-breakdowns-phone.png`, fullPage: true, animations: 'disabled' });
  });

  it('is friendly with no views at all', async () => {
    const empty = await demoWithSteps(server, key, 2);
    const { context, page } = await signedInPage(browser!, server.url, admin);
    contexts.push(context);
    await page.goto(`${server.url}/demos/${empty}/analytics`);
    await page.getByText('No views in this period yet.').waitFor();
    await page.getByText('Nobody viewed this demo in this period.').waitFor();
    await page.getByText('No link was viewed in this period.').waitFor();
    await page.getByText('No identified viewer in this period.').waitFor();
    expect(await page.getByRole('region', { name: 'Companies' }).getByRole('button', { name: 'Download CSV' }).isDisabled()).toBe(true);
    expect(await page.locator('.figure-value').first().textContent()).toBe('0');
    await page.screenshot({ path: `${SHOTS}/analytics-demo-empty.png`, fullPage: true, animations: 'disabled' });
  });
});
