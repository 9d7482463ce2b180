import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdRequests, launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { type TestSession, uniqueEmail } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('audit log page in Chromium', () => {
  let server: TestServer;
  let admin: TestSession;
  let editor: TestSession;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    mkdirSync(SHOTS, { recursive: true });
    // A long address, as real ones can be: the phone layout must wrap it. (A CI run once found cells 6 px past
    // a 375 px window; its cause was not reproduced, the old style sheet passes with this address too. The cards
    // now wrap whatever is too wide, and the full-page screenshot shows the page should it happen again.)
    admin = await server.signUp(uniqueEmail('workspaceadministrator.ofthedemoteam'));
    editor = await server.member(admin, 'editor');
    for (const name of ['Deploy bot', '=HYPERLINK("http://evil.example")', ...Array.from({ length: 26 }, (_, i) => `key ${i + 1}`)]) {
      const res = await admin.inject({ method: 'POST', url: '/v1/api-keys', payload: { name, scopes: ['demos:read'] } });
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  async function open(session: TestSession, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const { context, page } = await signedInPage(browser!, server.url, session, viewport, { acceptDownloads: true });
    contexts.push(context);
    return page;
  }

  const rows = (page: Page) => page.locator('table.table tbody tr');

  it('lists, filters, pages and downloads the log as an admin', async () => {
    const page = await open(admin);
    await page.goto(`${server.url}/settings/webhooks`);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL('**/settings/audit-log');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    // The admin's sign-up, the invitation, the editor joining and signing in, and 28 keys: 32 entries, 25 a page.
    await page.getByText('Page 1 of 2 · 32 entries').waitFor();
    expect(await rows(page).count()).toBe(25);
    await expect(rows(page).first().textContent()).resolves.toContain('key.created');
    await page.screenshot({ path: `${SHOTS}/audit-log-desktop.png`, fullPage: true, animations: 'disabled' });

    // Page 2 is held back: until its rows arrive, the pager names the page on screen (a CI run once
    // saw "Page 2 of 2" over page 1's 25 rows) and will not move again.
    const next = await holdRequests(page, /\/v1\/audit-log\?.*page=2/);
    await page.getByRole('button', { name: 'Next' }).click();
    await next.requested;
    expect(await page.getByRole('navigation', { name: 'Pages' }).getAttribute('aria-busy')).toBe('true');
    expect(await page.getByText('Page 1 of 2 · 32 entries').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    expect(await rows(page).count()).toBe(25);
    next.release();
    await page.getByText('Page 2 of 2 · 32 entries').waitFor();
    expect(await rows(page).count()).toBe(7);
    await expect(rows(page).last().textContent()).resolves.toContain('user.signed_in');

    await page.getByLabel('Action').selectOption('member.invited');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Page 1 of 1 · 1 entry').waitFor();
    const invited = await rows(page).first().textContent();
    expect(invited).toContain(editor.email);
    expect(invited).toContain(admin.email);

    // The CSV link carries the filters on screen.
    const csvLink = page.getByRole('link', { name: 'Download CSV' });
    expect(await csvLink.getAttribute('href')).toBe('/v1/audit-log.csv?action=member.invited');
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('Page 1 of 2 · 32 entries').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), csvLink.click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^created_at,action,actor_type/);
    expect(lines).toHaveLength(33);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"")"`);

    // Clicking an actor narrows the list to them; a range with nothing in it says so.
    await rows(page).getByRole('button', { name: admin.email }).first().click();
    await page.getByText('Page 1 of 2 · 30 entries').waitFor();
    await page.getByLabel('From', { exact: true }).fill('2001-01-01');
    await page.getByLabel('To', { exact: true }).fill('2001-01-02');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('heading', { name: 'No entries match' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/audit-log-empty.png`, fullPage: true, animations: 'disabled' });
  });

  it('fits a phone without sideways scrolling', async () => {
    const page = await open(admin, { width: 375, height: 812 });
    await page.goto(`${server.url}/settings/audit-log`);
    await page.getByText('Page 1 of 2 · 32 entries').waitFor();
    // Measured once the page has settled: a CI run on PostgreSQL once found it wider than the window
    // right after the pager showed (cause unknown; it passed on rerun). An element past the right edge
    // is named in the failure.
    await expect.poll(() => overflowing(page), { timeout: 5_000 }).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await page.screenshot({ path: `${SHOTS}/audit-log-phone.png`, fullPage: true, animations: 'disabled' });
  });

  it('is not offered to an editor, and says why on a direct visit', async () => {
    const page = await open(editor);
    await page.goto(`${server.url}/settings/api/keys`);
    await page.getByRole('link', { name: 'API keys' }).first().waitFor();
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await page.goto(`${server.url}/settings/audit-log`);
    await page.getByText('Only workspace admins can read the audit log.').waitFor();
    expect(await page.getByRole('link', { name: 'Download CSV' }).count()).toBe(0);
  });
});
