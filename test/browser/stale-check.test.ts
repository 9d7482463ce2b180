// The editor's stale marks: a step whose target left its page is marked in the step list, explained above
// its canvas, and replaced with the new capture (text kept); More → Check for changes shows every step.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchBrowser, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestSession } from '../helpers/test-app';
import { eventually } from '../helpers/webhook-receiver';

const SHOTS = 'test-results/screenshots';
const PAGE = `<!doctype html><html><head><title>Acme</title><style>body{font:16px/1.5 sans-serif;margin:40px}</style></head><body>
<h1 id="title">Invoices that send themselves</h1><p>Acme sends your invoices and chases late payers.</p><button id="start">Start trial</button></body></html>`;
const browser = await launchBrowser();

describe.skipIf(!browser || !CHROMIUM.path)('stale steps in the editor (Chromium)', () => {
  let site: Server;
  let server: TestServer;
  let session: TestSession;
  let demoId: string;
  let stepIds: string[];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    server = await startTestServer({ jobs: true, config: { CHROMIUM_PATH: CHROMIUM.path, ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32' } });
    session = await server.signUp();
    demoId = (await session.inject({ method: 'POST', url: '/v1/demos', payload: { title: 'Acme invoices', source_url: url } })).json().data.id;
    stepIds = [];
    for (const [title, selector] of [
      ['Meet Acme', '#title'],
      ['Pick a plan', '#pricing-table'],
    ]) {
      const step = (await session.inject({ method: 'POST', url: `/v1/demos/${demoId}/steps`, payload: { title, page_url: url } })).json().data;
      await session.inject({ method: 'POST', url: `/v1/demos/${demoId}/steps/${step.id}/hotspots`, payload: { x: 0.1, y: 0.1, width: 0.3, height: 0.1, selector } });
      stepIds.push(step.id);
    }
    const started = (await session.inject({ method: 'POST', url: `/v1/demos/${demoId}/checks` })).json().data;
    await eventually(async () => {
      const check = (await session.inject({ method: 'GET', url: `/v1/demos/${demoId}/checks/${started.id}` })).json().data;
      return check.status === 'succeeded' && check;
    }, 60_000, 'the check');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('marks the stale step, explains it and replaces it with the new capture, at 1280 and 390 px', async () => {
    const { context, page } = await signedInPage(browser!, server.url, session);
    await page.goto(`${server.url}/demos/${demoId}`);
    const list = page.getByRole('navigation', { name: 'Steps' });
    await list.getByText('missing').waitFor();
    expect(await list.locator('.step-stale').count()).toBe(1);
    await list.getByRole('button', { name: /2\. Pick a plan/ }).click();
    const notice = page.getByRole('status').filter({ hasText: 'This step no longer matches its page' });
    await notice.getByText('its target is not on the page any more').waitFor();
    // The new capture, small beside the notice: the page as the check found it.
    const shot = notice.getByRole('img', { name: 'The new capture of this step' });
    await shot.waitFor();
    // Loaded, not only in the page: on a loaded machine the picture arrives after its element.
    await expect.poll(() => shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1280);
    await page.screenshot({ path: `${SHOTS}/stale-step-1280.png` });

    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Check for changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Check for changes' });
    await dialog.getByText('1 of 2 steps no longer match their pages.').waitFor();
    await page.screenshot({ path: `${SHOTS}/stale-check-dialog-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/stale-check-dialog-390.png` });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.screenshot({ path: `${SHOTS}/stale-step-390.png` });
    await page.setViewportSize({ width: 1280, height: 900 });

    await notice.getByRole('button', { name: 'Replace with the new capture, keep my text and patches' }).click();
    await page.getByText('Step replaced with the new capture').waitFor();
    await notice.waitFor({ state: 'detached' });
    expect(await list.locator('.step-stale').count()).toBe(0);
    const step = await page.evaluate(async (id) => (await (await fetch(`/v1/demos/${id}`)).json()).data.steps[1], demoId);
    expect(step.title).toBe('Pick a plan');
    expect(step.image_url).toBeTruthy();
    await context.close();
  }, 90_000);
});
