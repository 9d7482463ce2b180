import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdRequests, launchBrowser, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

// The demos list and the delivery log page the same way as the audit log (which has its own test).
describe.skipIf(!browser)('paged lists in Chromium', () => {
  let server: TestServer;
  let admin: TestSession;
  let hookId: string;

  beforeAll(async () => {
    // Without jobs the test deliveries stay queued: the log only needs rows.
    server = await startTestServer({ config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32' } });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    for (let i = 1; i <= 21; i++) {
      const res = await admin.inject({ method: 'POST', url: '/v1/demos', payload: { title: `Tour ${String(i).padStart(2, '0')}`, type: 'interactive' } });
      expect(res.statusCode).toBe(201);
    }
    const hook = await admin.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: 'http://127.0.0.1:9/hook', events: ['demo.created'] } });
    expect(hook.statusCode).toBe(201);
    hookId = hook.json().data.id;
    for (let i = 0; i < 21; i++) {
      const res = await admin.inject({ method: 'POST', url: `/v1/webhooks/${hookId}/test` });
      expect(res.statusCode).toBeLessThan(300);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('demos: the pager names the page on screen until the next one has arrived', async () => {
    const { context, page } = await signedInPage(browser!, server.url, admin);
    await page.goto(`${server.url}/demos`);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await pager.getByText('Page 1 of 2 · 21 demos').waitFor();
    const rows = page.locator('table.table tbody tr');
    expect(await rows.count()).toBe(20);

    const next = await holdRequests(page, /\/v1\/demos\?.*page=2/);
    await pager.getByRole('button', { name: 'Next' }).click();
    await next.requested;
    expect(await pager.getAttribute('aria-busy')).toBe('true');
    expect(await pager.getByText('Page 1 of 2 · 21 demos').count()).toBe(1);
    expect(await pager.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    next.release();
    await pager.getByText('Page 2 of 2 · 21 demos').waitFor();
    expect(await rows.count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/demos-page-2.png`, animations: 'disabled' });
    expect(await pager.getAttribute('aria-busy')).toBe('false');
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Previous' }).click();
    await pager.getByText('Page 1 of 2 · 21 demos').waitFor();
    expect(await rows.count()).toBe(20);
    await context.close();
  });

  it('delivery log: pages the same way', async () => {
    const { context, page } = await signedInPage(browser!, server.url, admin);
    await page.goto(`${server.url}/settings/webhooks/${hookId}`);
    const pager = page.getByRole('navigation', { name: 'Delivery pages' });
    await pager.getByText('Page 1 of 2').waitFor();
    const deliveries = page.getByRole('list', { name: 'Deliveries' }).getByRole('listitem');
    expect(await deliveries.count()).toBe(20);

    const next = await holdRequests(page, /\/deliveries\?.*page=2/);
    await pager.getByRole('button', { name: 'Next' }).click();
    await next.requested;
    expect(await pager.getByText('Page 1 of 2').count()).toBe(1);
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    expect(await deliveries.count()).toBe(20);
    next.release();
    await pager.getByText('Page 2 of 2').waitFor();
    expect(await deliveries.count()).toBe(1);
    await pager.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/delivery-log-pager.png`, animations: 'disabled' });
    await context.close();
  });
});
