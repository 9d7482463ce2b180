// A hub's Analytics card in the web app, in Chromium at 1280 and 390 px: its figures within the card's date range (the analytics pages' control), asked of the API as start_date and end_date.
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { seedHub } from '../helpers/hubs';
import { startTestServer, type TestServer } from '../helpers/server';
import { keyData, type TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const DAY_MS = 86_400_000;
const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
const browser: Browser | null = await launchBrowser();

/**
 * The visits, by how many days ago they were: each has an address (passed the form and opened the demos
 * named) or bounced at the gate. Today 3 visits, 10 days ago 2, 40 days ago 4.
 */
const VISITS: { daysAgo: number; email?: string; opens?: ('invoice' | 'dashboard')[] }[] = [
  { daysAgo: 0, email: 'ann@acme.test', opens: ['invoice', 'invoice'] },
  { daysAgo: 0 },
  { daysAgo: 0 },
  { daysAgo: 10, email: 'bob@globex.test', opens: ['dashboard'] },
  { daysAgo: 10 },
  { daysAgo: 40, email: 'cy@initech.test', opens: ['invoice', 'dashboard'] },
  { daysAgo: 40 },
  { daysAgo: 40 },
  { daysAgo: 40 },
];

describe.skipIf(!browser)('a hub’s Analytics card in the web app (Chromium)', () => {
  let server: TestServer;
  let admin: TestSession;
  let key: string;
  let hub: { id: string; url: string };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer({ selfUrl: true });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    key = await server.apiKey('all', admin);
    const seeded = await seedHub(server, key, {
      hub: { name: 'Partner portal', lead_fields: ['company'] },
      collections: [{ name: 'Tours', entries: [{ title: 'Create your first invoice' }, { title: 'Revenue dashboard' }] }],
    });
    hub = seeded.hub;
    const { token } = seeded;
    const entries = { invoice: seeded.entries[0]!.id, dashboard: seeded.entries[1]!.id };
    for (const [i, visit] of VISITS.entries()) {
      // Each visit its own browser session (no cookie sent back but its own), named by its user agent so it can be dated.
      const headers = { 'user-agent': `visit-${i}` };
      const opened = await server.app.inject({ method: 'GET', url: `/v1/hub-viewer/${token}`, headers });
      expect(opened.statusCode, opened.body).toBe(200);
      const session = { ...headers, 'x-hub-session': opened.json().data.session_token as string };
      if (visit.email) {
        const access = await server.app.inject({
          method: 'POST',
          url: `/v1/hub-viewer/${token}/access`,
          headers: session,
          payload: { name: visit.email.split('@')[0], email: visit.email, company: 'Example' },
        });
        expect(access.statusCode, access.body).toBe(200);
      }
      for (const entry of visit.opens ?? []) {
        const open = await server.app.inject({ method: 'POST', url: `/v1/hub-viewer/${token}/entries/${entries[entry]}/open`, headers: session });
        expect(open.statusCode, open.body).toBe(200);
      }
      if (visit.daysAgo === 0) continue;
      const back = `interval '${visit.daysAgo} days'`;
      const moved = await server.db.database.executeSql(
        `update hub_sessions set created_at = created_at - ${back}, identified_at = identified_at - ${back} where hub_id = $1 and user_agent = $2 returning id`,
        [hub.id, `visit-${i}`],
      );
      expect(moved.rows).toHaveLength(1);
      await server.db.database.executeSql(`update hub_opens set at = at - ${back} where session_id = $1`, [moved.rows[0]!.id]);
    }
    // The API agrees with the plan before the page is asked: 30 days back, the last 5 visits.
    expect(await keyData(server, key, 'GET', `/hubs/${hub.id}/analytics?start_date=${utcDay(29)}&end_date=${utcDay(0)}`)).toMatchObject({
      visits: 5,
      identified_visitors: 2,
      demos_opened: 3,
    });
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  for (const [width, label] of [
    [1280, 'desktop'],
    [390, 'phone'],
  ] as const) {
    it(`at ${width} px: the last 30 days first, then 7 and 90 days, a custom day, an inverted range refused, days without visits`, async () => {
      const { context, page } = await signedInPage(browser!, server.url, admin, { width, height: 900 });
      contexts.push(context);
      const asked: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes(`/v1/hubs/${hub.id}/analytics`)) asked.push(new URL(r.url()).search);
      });
      await page.goto(`${server.url}/hubs/${hub.id}`);
      const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Analytics', exact: true }) });
      const figures = () =>
        panel.locator('.hub-figure').evaluateAll((els) => Object.fromEntries(els.map((el) => [el.querySelector('dt')?.textContent, el.querySelector('dd')?.textContent])));
      const perDemo = () => panel.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td, th')].map((c) => c.textContent?.trim())));
      const lastAsked = () => asked.at(-1);

      await panel.locator('.hub-figure').first().waitFor();
      expect(await figures()).toEqual({ Visits: '5', 'Identified visitors': '2', 'Demos opened': '3', Completions: '0', 'Completion rate': '0%' });
      expect(await perDemo()).toEqual([
        ['Create your first invoice', '2', '0', '0'],
        ['Revenue dashboard', '1', '0', '0'],
      ]);
      expect(asked).toEqual([`?start_date=${utcDay(29)}&end_date=${utcDay(0)}`]);
      expect(await panel.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe('true');
      expect(await panel.getByText('30 days, UTC').count()).toBe(1);
      // The Visitors card has a picker of its own, still on All time.
      const visitors = page.locator('section#visitors');
      await visitors.getByText('Page 1 of 1 · 3 visitors').waitFor();
      expect(await visitors.getByRole('button', { name: 'All time' }).getAttribute('aria-pressed')).toBe('true');
      expect(await overflowing(page)).toEqual([]);
      await panel.screenshot({ path: `${SHOTS}/hub-analytics-${label}.png`, animations: 'disabled' });

      await panel.getByRole('button', { name: '7 days' }).click();
      await expect.poll(figures).toMatchObject({ Visits: '3', 'Identified visitors': '1', 'Demos opened': '2' });
      expect(lastAsked()).toBe(`?start_date=${utcDay(6)}&end_date=${utcDay(0)}`);
      expect(await perDemo()).toEqual([
        ['Create your first invoice', '2', '0', '0'],
        ['Revenue dashboard', '0', '0', '0'],
      ]);

      await panel.getByRole('button', { name: '90 days' }).click();
      await expect.poll(figures).toMatchObject({ Visits: '9', 'Identified visitors': '3', 'Demos opened': '5' });
      expect(lastAsked()).toBe(`?start_date=${utcDay(89)}&end_date=${utcDay(0)}`);

      // Custom days: Apply waits for a range that makes sense; then the day of the oldest visits alone.
      await panel.getByRole('button', { name: 'Custom' }).click();
      await panel.getByLabel('From', { exact: true }).fill(utcDay(39));
      await panel.getByLabel('To', { exact: true }).fill(utcDay(41));
      expect(await panel.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
      await panel.getByText('The start date must be on or before the end date.').waitFor();
      await panel.getByLabel('From', { exact: true }).fill(utcDay(40));
      await panel.getByLabel('To', { exact: true }).fill(utcDay(40));
      const before = asked.length;
      await panel.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(figures).toMatchObject({ Visits: '4', 'Identified visitors': '1', 'Demos opened': '2' });
      expect(asked.slice(before)).toEqual([`?start_date=${utcDay(40)}&end_date=${utcDay(40)}`]);
      expect(await perDemo()).toEqual([
        ['Create your first invoice', '1', '0', '0'],
        ['Revenue dashboard', '1', '0', '0'],
      ]);
      expect(await panel.getByText('1 day, UTC').count()).toBe(1);
      expect(await overflowing(page)).toEqual([]);
      await panel.screenshot({ path: `${SHOTS}/hub-analytics-custom-${label}.png`, animations: 'disabled' });

      // Days nobody came: said so. The Visitors card did not follow.
      await panel.getByLabel('From', { exact: true }).fill(utcDay(60));
      await panel.getByLabel('To', { exact: true }).fill(utcDay(50));
      await panel.getByRole('button', { name: 'Apply' }).click();
      await panel.getByText('Nobody visited the hub in these days.').waitFor();
      expect(await figures()).toMatchObject({ Visits: '0', 'Identified visitors': '0', 'Demos opened': '0' });
      expect(await visitors.getByText('Page 1 of 1 · 3 visitors').count()).toBe(1);
      await panel.getByRole('button', { name: '30 days' }).click();
      await expect.poll(figures).toMatchObject({ Visits: '5' });
      expect(await panel.getByText('Nobody visited the hub in these days.').count()).toBe(0);
    });
  }
});
