// A hub's visitors in the web app, in Chromium at 1280 and 390 px: the table a page at a time, the CSV export, both within the card's date range.
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { seedHub } from '../helpers/hubs';
import { startTestServer, type TestServer } from '../helpers/server';
import { keyData, type TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const VISITORS = 23;
/** Visitors 1–5 identified 40 days ago, 6–8 ten days ago, the rest today: what the date range picks from. */
const OLD = 5;
const RECENT = 3;
const DAY_MS = 86_400_000;
const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('a hub’s visitors in the web app (Chromium)', () => {
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
      hub: { name: 'Partner portal', lead_fields: ['company', 'job_title', 'phone'] },
      collections: [{ name: 'Tours', entries: [{ title: 'Create your first invoice' }, { title: 'Revenue dashboard' }] }],
    });
    hub = seeded.hub;
    const { token } = seeded;
    const entries = seeded.entries.map((e) => e.id);
    // Each request without a cookie is a new visit; the last one is the newest and opens both demos.
    for (let i = 1; i <= VISITORS; i++) {
      const last = i === VISITORS;
      const access = await server.app.inject({
        method: 'POST',
        url: `/v1/hub-viewer/${token}/access`,
        payload: last
          ? {
              name: 'Maximiliana Featherstonehaugh-Wolfeschlegelsteinhausen',
              email: 'maximiliana.featherstonehaugh-wolfeschlegelsteinhausen@very-long-company-name.example.com',
              company: 'International Business Consolidated Holdings Group',
              job_title: 'Vice President, Partnerships',
              phone: '+44 20 7946 0958',
            }
          : { name: `Visitor ${i}`, email: `visitor${i}@example.com`, company: `Company ${i}`, job_title: 'Buyer', phone: i % 2 ? '555 0100' : '555 0101' },
      });
      expect(access.statusCode, access.body).toBe(200);
      if (!last) continue;
      const session = access.json().data.session_token as string;
      for (const entryId of [entries[0], entries[0], entries[1]]) {
        const opened = await server.app.inject({ method: 'POST', url: `/v1/hub-viewer/${token}/entries/${entryId}/open`, headers: { 'x-hub-session': session } });
        expect(opened.statusCode, opened.body).toBe(200);
      }
    }
    const backdate = async (days: number, from: number, to: number) => {
      const emails = Array.from({ length: to - from + 1 }, (_, i) => `visitor${from + i}@example.com`);
      const moved = await server.db.database.executeSql(
        `update hub_sessions set identified_at = identified_at - interval '${days} days' where hub_id = $1 and viewer_email = any(string_to_array($2, ',')) returning 1`,
        [hub.id, emails.join(',')],
      );
      expect(moved.rows).toHaveLength(emails.length);
    };
    await backdate(40, 1, OLD);
    await backdate(10, OLD + 1, OLD + RECENT);
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
    it(`at ${width} px: the visitors a page at a time, newest first, and the CSV of all of them`, async () => {
      const { context, page } = await signedInPage(browser!, server.url, admin, { width, height: 900 }, { acceptDownloads: true });
      contexts.push(context);
      await page.goto(`${server.url}/hubs/${hub.id}`);
      const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Visitors', exact: true }) });
      await panel.getByText(`Page 1 of 2 · ${VISITORS} visitors`).waitFor();
      const rows = panel.locator('tbody tr');
      expect(await rows.count()).toBe(20);
      const newest = await rows.first().textContent();
      expect(newest).toContain('Maximiliana Featherstonehaugh-Wolfeschlegelsteinhausen');
      expect(newest).toContain('Vice President, Partnerships');
      expect(newest).toContain('Create your first invoice × 2');
      expect(newest).toContain('Revenue dashboard');
      expect(await rows.nth(1).textContent()).toContain(`visitor${VISITORS - 1}@example.com`);
      expect(await overflowing(page)).toEqual([]);
      await panel.screenshot({ path: `${SHOTS}/hub-visitors-${label}.png`, animations: 'disabled' });

      await panel.getByRole('button', { name: 'Next' }).click();
      await panel.getByText(`Page 2 of 2 · ${VISITORS} visitors`).waitFor();
      expect(await rows.count()).toBe(VISITORS - 20);
      expect(await rows.last().textContent()).toContain('visitor1@example.com');

      const link = panel.getByRole('link', { name: 'Export CSV' });
      expect(await link.getAttribute('href')).toBe(`/v1/hubs/${hub.id}/visitors/export`);
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^hub-visitors-${hub.id}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
      const lines = readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
      expect(lines[0]).toBe('identified_at,email,name,company,job_title,phone,demos_opened,demo_ids,demo_titles');
      expect(lines).toHaveLength(VISITORS + 1);
      expect(lines[1]).toContain(`,"Vice President, Partnerships",'+44 20 7946 0958,3,`);
      expect(lines[1]).toMatch(/,Create your first invoice; Revenue dashboard$/);

      // The card's date range (the analytics pages' control): the list, from its first page, and the export follow it.
      const csvOf = async () => {
        const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
        return readFileSync((await file.path())!, 'utf8').trim().split('\r\n').slice(1);
      };
      expect(await panel.getByRole('button', { name: 'All time' }).getAttribute('aria-pressed')).toBe('true');
      await panel.getByRole('button', { name: '7 days' }).click();
      const week = VISITORS - OLD - RECENT;
      await panel.getByText(`Page 1 of 1 · ${week} visitors`).waitFor();
      expect(await rows.count()).toBe(week);
      expect(await panel.textContent()).not.toContain(`visitor${OLD + RECENT}@example.com`);
      expect(await link.getAttribute('href')).toBe(`/v1/hubs/${hub.id}/visitors/export?start_date=${utcDay(6)}&end_date=${utcDay(0)}`);
      expect(await csvOf()).toHaveLength(week);

      await panel.getByRole('button', { name: '30 days' }).click();
      await panel.getByText(`Page 1 of 1 · ${VISITORS - OLD} visitors`).waitFor();
      expect(await rows.last().textContent()).toContain(`visitor${OLD + 1}@example.com`);

      // Custom days: the day the oldest came, alone. Apply waits for a range that makes sense.
      await panel.getByRole('button', { name: 'Custom' }).click();
      await panel.getByLabel('From', { exact: true }).fill(utcDay(39));
      await panel.getByLabel('To', { exact: true }).fill(utcDay(41));
      expect(await panel.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
      await panel.getByText('The start date must be on or before the end date.').waitFor();
      await panel.getByLabel('From', { exact: true }).fill(utcDay(40));
      await panel.getByLabel('To', { exact: true }).fill(utcDay(40));
      await panel.getByRole('button', { name: 'Apply' }).click();
      await panel.getByText(`Page 1 of 1 · ${OLD} visitors`).waitFor();
      expect((await rows.allTextContents()).map((r) => /visitor(\d+)@/.exec(r)?.[1])).toEqual(['5', '4', '3', '2', '1']);
      expect(await link.getAttribute('href')).toBe(`/v1/hubs/${hub.id}/visitors/export?start_date=${utcDay(40)}&end_date=${utcDay(40)}`);
      const oldest = await csvOf();
      expect(oldest).toHaveLength(OLD);
      expect(oldest.every((line) => line.startsWith(`${utcDay(40)}T`))).toBe(true);
      expect(await overflowing(page)).toEqual([]);
      await panel.screenshot({ path: `${SHOTS}/hub-visitors-range-${label}.png`, animations: 'disabled' });

      // Days nobody came: said so, with the way back.
      await panel.getByLabel('From', { exact: true }).fill(utcDay(60));
      await panel.getByLabel('To', { exact: true }).fill(utcDay(50));
      await panel.getByRole('button', { name: 'Apply' }).click();
      await panel.getByText('No visitors in these days').waitFor();
      await panel.getByRole('button', { name: 'All time' }).click();
      await panel.getByText(`Page 1 of 2 · ${VISITORS} visitors`).waitFor();
      expect(await link.getAttribute('href')).toBe(`/v1/hubs/${hub.id}/visitors/export`);
    });
  }

  it('scrolls to the Visitors card from a notice e-mail’s link (#visitors)', async () => {
    const { context, page } = await signedInPage(browser!, server.url, admin, { width: 390, height: 700 });
    contexts.push(context);
    await page.goto(`${server.url}/hubs/${hub.id}#visitors`);
    const panel = page.locator('section#visitors');
    await panel.getByText(`Page 1 of 2 · ${VISITORS} visitors`).waitFor();
    await page.waitForFunction(() => {
      const top = document.getElementById('visitors')?.getBoundingClientRect().top ?? -1;
      return Math.abs(top) < 2;
    });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });

  it('leaves out a signed-in member who passes the hub’s form to try it', async () => {
    const { context, page } = await signedInPage(browser!, server.url, admin, { width: 1280, height: 900 });
    contexts.push(context);
    await page.goto(hub.url);
    await page.getByLabel('Your name').fill('Admin Trying');
    await page.getByLabel('Work e-mail').fill('admin.trying@example.com');
    await page.getByLabel('Company').fill('Us');
    await page.getByLabel('Job title').fill('Admin');
    await page.getByLabel('Phone').fill('0');
    await page.getByRole('button', { name: 'View demos' }).click();
    await page.getByRole('button', { name: 'Open demo: Revenue dashboard' }).click();
    await page.frameLocator('iframe.hub-frame').getByRole('button', { name: 'Click 1' }).waitFor();
    await page.goto(`${server.url}/hubs/${hub.id}`);
    const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Visitors', exact: true }) });
    await panel.getByText(`Page 1 of 2 · ${VISITORS} visitors`).waitFor();
    expect(await panel.textContent()).not.toContain('admin.trying@example.com');
    const figures = await keyData(server, key, 'GET', `/hubs/${hub.id}/analytics`);
    expect(figures).toMatchObject({ visits: VISITORS, identified_visitors: VISITORS, demos_opened: 3 });
  });
});
