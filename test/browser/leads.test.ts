import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { createShare, demoWithSteps, viewerClient } from '../helpers/shares';
import { bearer, type TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

const FORM = {
  fields: [
    { name: 'email', label: 'Work e-mail', type: 'email', required: true },
    { name: 'name', label: 'Your name', type: 'text' },
    { name: 'company', label: 'Company', type: 'text' },
    { name: 'size', label: 'Company size', type: 'select', options: ['1-10', '11-50', '51+'] },
    { name: 'consent', label: 'I agree to be contacted', type: 'checkbox', required: true },
  ],
  submit_label: 'Send',
};

describe.skipIf(!browser)('leads page in Chromium', () => {
  let server: TestServer;
  let admin: TestSession;
  let key: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    key = await server.apiKey('all', admin);
  }, 180_000);
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

  /** A published demo whose second step is the lead form, shared through a link named `name`. */
  async function demoWithLeads(name: string, values: object[]) {
    const api = (method: 'GET' | 'PATCH', url: string, payload?: object) =>
      server.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
    const demoId = await demoWithSteps(server, key, 3, false);
    const steps = (await api('GET', `/v1/demos/${demoId}`)).json().data.steps as { id: string; number: number }[];
    const res = await api('PATCH', `/v1/demos/${demoId}/steps/${steps[1]!.id}`, { kind: 'form', content: { buttons: [], form: FORM } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await api('PATCH', `/v1/demos/${demoId}`, { status: 'published' })).statusCode).toBe(200);
    const link = await createShare(server, key, demoId, { name });
    for (const [i, v] of values.entries()) {
      const viewer = viewerClient(server, link.token, `203.0.113.${40 + i}`);
      await viewer.call('GET', '');
      const sent = await viewer.call('POST', '/leads', { id: randomUUID(), step_number: 2, values: v });
      expect(sent.statusCode, sent.body).toBe(201);
    }
    return demoId;
  }

  it('shows an empty state before any lead', async () => {
    const page = await open(admin);
    await page.goto(`${server.url}/demos`);
    await page.getByRole('link', { name: 'Leads' }).click();
    await page.waitForURL('**/leads');
    await page.getByRole('heading', { name: 'No leads yet' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/leads-empty.png`, fullPage: true, animations: 'disabled' });
  });

  it('lists leads with their demo, link and answers, filters by demo, and downloads the CSV', async () => {
    const first = await demoWithLeads('Sent to Acme', [
      { email: 'jane@acme.test', name: 'Jane Doe', company: 'Acme', size: '11-50', consent: true },
      { email: 'raj@acme.test', name: 'Raj Patel', company: 'Acme', consent: true },
    ]);
    await demoWithLeads('Conference booth', [{ email: 'li@globex.test', name: '', company: '=cmd()', size: '51+', consent: true }]);

    const page = await open(admin);
    await page.goto(`${server.url}/leads`);
    await page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
    const rows = page.locator('table.table tbody tr');
    await page.getByText('Page 1 of 1 · 3 leads').waitFor();
    expect(await rows.count()).toBe(3);
    const jane = rows.filter({ hasText: 'jane@acme.test' });
    const text = (await jane.textContent()) ?? '';
    for (const part of ['Jane Doe', 'Secret roadmap tour', 'Step 2', 'Sent to Acme', 'company', 'Acme', '11-50', 'consent', 'yes']) expect(text).toContain(part);
    // A formula typed into a field is shown as typed: text, never run.
    await page.getByText('=cmd()').waitFor();
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/leads-desktop.png`, fullPage: true, animations: 'disabled' });

    await page.getByLabel('Demo', { exact: true }).selectOption(first);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Page 1 of 1 · 2 leads').waitFor();
    const csvLink = page.getByRole('link', { name: 'Download CSV' });
    expect(await csvLink.getAttribute('href')).toBe(`/v1/leads.csv?demo_id=${first}`);
    const [download] = await Promise.all([page.waitForEvent('download'), csvLink.click()]);
    expect(download.suggestedFilename()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      'created_at,demo_id,demo_title,share_id,share_name,email,name,step_number,lead_id,field:email,field:name,field:company,field:consent,field:size',
    );
    expect(csv).toContain('jane@acme.test');
    expect(csv).not.toContain('li@globex.test');

    // A phone: the table becomes cards, nothing runs off the screen.
    const phone = await open(admin, { width: 390, height: 844 });
    await phone.goto(`${server.url}/leads?demo_id=${first}`);
    await phone.getByText('Page 1 of 1 · 2 leads').waitFor();
    expect(await overflowing(phone)).toEqual([]);
    await phone.screenshot({ path: `${SHOTS}/leads-phone.png`, fullPage: true, animations: 'disabled' });
  });
});
