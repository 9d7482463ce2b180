/// <reference types="chrome" />
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, sessionCookies } from '../helpers/browser';
import { findStored } from '../helpers/database-scan';
import { type ExtensionBrowser, launchWithExtension } from '../helpers/extension';
import { type FlakyProxy, startFlakyProxy } from '../helpers/flaky-proxy';
import { INVOICE_FORM, type RecorderApp, startRecorderApp } from '../helpers/recorder-app';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
/** Ledgerly's sign-in password: typed while recording, it must be stored nowhere. */
const APP_PASSWORD = 'ledgerly-Pa55word-7f3k';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface ApiStep {
  id: string;
  number: number;
  title: string;
  page_url: string | null;
  image_url: string | null;
  html_url: string | null;
  width: number | null;
  height: number | null;
}

interface ApiHotspot {
  step_id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  selector: string | null;
  label: string;
}

describe.skipIf(!CHROMIUM.path)('the recorder extension in Chromium', () => {
  let server: TestServer;
  let proxy: FlakyProxy;
  let ledgerly: RecorderApp;
  let browser: ExtensionBrowser;
  let user: TestSession;
  const viewport = { width: 1280, height: 800 };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // The API is reached through a proxy that can cut a request off, to interrupt the upload.
    proxy = await startFlakyProxy();
    server = await startTestServer({ selfUrl: true, config: { API_URL: proxy.url } });
    proxy.target = server.url;
    ledgerly = await startRecorderApp();
    browser = await launchWithExtension(viewport);
    user = await server.signUp();
    await browser.context.addCookies(sessionCookies(user, server.url));
  });
  afterAll(async () => {
    await browser?.close();
    await ledgerly?.close();
    await server?.close();
    await proxy?.close();
  });

  const status = async () => (await browser.send<{ recording: { status: string; steps: number; editorUrl: string | null; error: string | null } | null; connection: unknown }>({ type: 'status' })).result!;
  type Stored = { connection: { accessToken: string; refreshToken: string; expiresAt: number } };
  const indicatorText = (page: Page) => page.locator('demoshare-recorder .status').textContent();

  it('connects through the OAuth consent page, with PKCE and no key to paste', async () => {
    const popup = await browser.context.newPage();
    await popup.goto(`chrome-extension://${browser.extensionId}/popup.html`);
    await popup.getByLabel('Your Demoshare address').fill(server.url);
    const consentOpens = browser.context.waitForEvent('page');
    await popup.getByRole('button', { name: 'Connect' }).click();
    const consent = await consentOpens;
    await consent.getByRole('button', { name: 'Allow access' }).waitFor();
    expect(await consent.getByText('Demoshare Recorder').first().isVisible()).toBe(true);
    await consent.screenshot({ path: `${SHOTS}/recorder-consent.png` });
    await consent.getByRole('button', { name: 'Allow access' }).click();
    await consent.waitForURL(`chrome-extension://${browser.extensionId}/oauth-callback.html*`);
    await consent.getByRole('heading', { name: 'Connected' }).waitFor();
    // The code is gone from the address once used.
    expect(consent.url()).not.toContain('code=');
    expect((await status()).connection).toMatchObject({ instanceUrl: server.url, kind: 'oauth' });
    const { connection } = await browser.storage<Stored>();
    expect(connection.accessToken).toMatch(/^dsa_/);
    await consent.close();
    if (!popup.isClosed()) await popup.close();
  });

  it('records a signed-in flow: one step per action, hotspots on what was clicked, styled snapshots, and no secret anywhere', async () => {
    const page = await browser.context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(ledgerly.url);
    await page.waitForURL('**/login');
    await page.bringToFront();
    const started = await browser.send({ type: 'start', tabId: await browser.tabIdOf(page) });
    expect(started.ok).toBe(true);
    await expect.poll(() => indicatorText(page)).toBe('Recording · 0 steps');

    const boxes: (Box | null)[] = [];
    /** Clicks as a person does (the button held for a moment), noting where the element was. */
    const click = async (selector: string, frame?: string) => {
      const locator = frame ? page.frameLocator(frame).locator(selector) : page.locator(selector);
      boxes.push(await locator.boundingBox());
      await locator.click({ delay: 80 });
    };
    const type = async (selector: string, value: string) => {
      boxes.push(await page.locator(selector).boundingBox());
      await page.fill(selector, value);
      await page.press(selector, 'Tab');
    };
    const steps = async (n: number) => expect.poll(() => indicatorText(page)).toBe(`Recording · ${n} ${n === 1 ? 'step' : 'steps'}`);

    await type('input[name=email]', 'sam@ledgerly.test');
    await steps(1);
    await type('input[name=password]', APP_PASSWORD);
    await steps(2);
    await click('button[type=submit]');
    await page.waitForURL('**/app/invoices');
    await steps(3);

    // The browser stops the idle worker; recording carries on from what it stored.
    await browser.stopServiceWorker();
    await click('.nav a[href="/app/clients"]');
    await steps(4);
    // Undo removes the last step; nothing is recorded while paused.
    await page.locator('demoshare-recorder button[data-action="undo"]').click();
    boxes.pop();
    await steps(3);
    await page.locator('demoshare-recorder button[data-action="pause"]').click();
    await expect.poll(() => indicatorText(page)).toBe('Paused · 3 steps');
    await page.click('.nav a[href="/app/settings"]');
    await page.locator('demoshare-recorder button[data-action="pause"]').click();
    await steps(3);

    await click('.nav a[href="/app/invoices"]');
    await steps(4);
    const themeColour = await page.locator('#create-invoice').evaluate((el) => getComputedStyle(el).backgroundColor);
    await click('#create-invoice');
    await page.waitForURL('**/app/invoices/new');
    await steps(5);
    await type('input[name=client]', INVOICE_FORM.client);
    await steps(6);
    await browser.stopServiceWorker();
    await type('input[name=apiSecret]', INVOICE_FORM.apiSecret);
    await steps(7);
    await type('input[name=card]', INVOICE_FORM.card);
    await steps(8);
    await click('#preview-total', '#preview');
    await steps(9);
    await page.screenshot({ path: `${SHOTS}/recorder-recording.png` });
    await click('#create-invoice-submit');
    await steps(10);

    // The access token is about to expire: the upload refreshes it first.
    const before = await browser.storage<Stored>();
    await browser.setStorage({ connection: { ...before.connection, expiresAt: Date.now() } });
    // The third step's upload fails once; the extension asks the server what it lacks and carries on.
    proxy.failNext('PUT', /^\/v1\/recordings\/rec_[a-z0-9]+\/steps\/3$/);
    const editorOpens = browser.context.waitForEvent('page', { timeout: 60_000 });
    await page.locator('demoshare-recorder button[data-action="stop"]').click();
    await expect.poll(async () => (await status()).recording?.status, { timeout: 60_000 }).toBe('done');
    const editor = await editorOpens;
    const demoId = /\/demos\/([a-z0-9_]+)/.exec(editor.url())![1]!;
    await editor.waitForLoadState();
    const thumb = editor.locator('img.step-thumb').first();
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), { timeout: 15_000 }).toBe(viewport.width);
    await editor.screenshot({ path: `${SHOTS}/recorder-editor.png` });

    const after = await browser.storage<Stored>();
    expect(after.connection.accessToken).not.toBe(before.connection.accessToken);
    const puts = proxy.log.filter((line) => line.startsWith('PUT /v1/recordings/'));
    expect(puts.filter((line) => line.endsWith('/steps/3 failed'))).toHaveLength(1);
    for (let n = 1; n <= 10; n++) expect(puts.filter((line) => line.endsWith(`/steps/${n}`)), `step ${n}`).toHaveLength(1);
    expect(proxy.log.some((line) => /^GET \/v1\/recordings\/rec_/.test(line))).toBe(true);

    const demo = (await user.inject({ method: 'GET', url: `/v1/demos/${demoId}` })).json().data as {
      status: string;
      steps: ApiStep[];
      hotspots: ApiHotspot[];
    };
    expect(demo.status).toBe('draft');
    expect(demo.steps.map((s) => s.title)).toEqual([
      'Type “sam@ledgerly.test” in E-mail',
      'Enter the password',
      'Click “Sign in”',
      'Click “Invoices”',
      'Click “Create invoice”',
      `Type “${INVOICE_FORM.client}” in Client`,
      expect.stringMatching(/^Enter the /),
      expect.stringMatching(/^Enter the /),
      expect.stringMatching(/^Click “Total/),
      'Click “Create invoice”',
    ]);
    expect(demo.steps[3]!.page_url).toBe(`${ledgerly.url}app/settings`);
    expect(demo.steps[4]!.page_url).toBe(`${ledgerly.url}app/invoices`);
    // Every step has its screenshot, as wide as the viewport, and the hotspot is where the element was.
    for (const [i, step] of demo.steps.entries()) {
      expect(step.image_url, `step ${i + 1}`).not.toBeNull();
      expect(step.width).toBe(viewport.width);
      const box = boxes[i]!;
      const hotspot = demo.hotspots.find((h) => h.step_id === step.id);
      expect(hotspot, `step ${i + 1}`).toBeDefined();
      expect(Math.abs(hotspot!.x * viewport.width - box.x), `step ${i + 1} x`).toBeLessThan(2);
      expect(Math.abs(hotspot!.y * viewport.height - box.y), `step ${i + 1} y`).toBeLessThan(2);
      expect(Math.abs(hotspot!.width * viewport.width - box.width), `step ${i + 1} width`).toBeLessThan(2);
    }

    // The snapshots render with their styles (the cross-origin theme included) with no network at all.
    const snapshots = await Promise.all(
      demo.steps.map(async (s) => (s.html_url ? (await user.inject({ method: 'GET', url: new URL(s.html_url).pathname })).body : null)),
    );
    expect(snapshots.filter(Boolean).length).toBeGreaterThanOrEqual(9);
    const offline = await browser.context.newPage();
    await offline.route('**/*', (route) => route.abort());
    await offline.setContent(snapshots[4]!);
    expect(await offline.locator('#create-invoice').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(themeColour);
    expect(await offline.locator('[data-ds-target]').getAttribute('id')).toBe('create-invoice');
    await offline.screenshot({ path: `${SHOTS}/recorder-snapshot.png` });
    // The snapshot of the click inside the preview frame holds the frame's content.
    expect(snapshots[8]).toContain('preview-total');
    await offline.close();

    // What was typed is kept, except the secrets, which are nowhere: not in the steps, not in the database, not in the asset store.
    expect(await findStored(server.ctx, 'sam@ledgerly.test')).not.toEqual([]);
    for (const secret of [APP_PASSWORD, INVOICE_FORM.apiSecret, INVOICE_FORM.card, INVOICE_FORM.redactedEmail]) {
      expect(await findStored(server.ctx, secret), secret).toEqual([]);
      for (const html of snapshots) expect(html ?? '').not.toContain(secret);
    }
    await editor.close();
    await page.close();
  });

  it('records into an existing demo, and what the user marks to blur while recording is not kept', async () => {
    const created = await user.inject({ method: 'POST', url: '/v1/demos', payload: { title: 'Existing demo' } });
    const demoId = created.json().data.id as string;
    await user.inject({ method: 'POST', url: `/v1/demos/${demoId}/steps`, payload: { title: 'Welcome' } });
    const page = await browser.context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${ledgerly.url}app/invoices`);
    await page.locator('#create-invoice').waitFor();
    await page.bringToFront();
    const started = await browser.send({ type: 'start', tabId: await browser.tabIdOf(page), into: { mode: 'append', demoId } });
    expect(started).toMatchObject({ ok: true });
    await expect.poll(() => indicatorText(page)).toBe('Recording · 0 steps');

    // Blur mode: the next click marks what to hide, and is not a step.
    await page.locator('demoshare-recorder button[data-action="blur"]').click();
    await expect.poll(() => indicatorText(page)).toBe('Click what to blur');
    await page.getByRole('cell', { name: 'Northwind Traders' }).click();
    expect(await page.getByRole('cell', { name: 'Northwind Traders' }).getAttribute('data-demoshare-blur')).toBe('');
    expect(await page.getByRole('cell', { name: 'Northwind Traders' }).evaluate((el) => getComputedStyle(el).filter)).toContain('blur');
    await expect.poll(() => indicatorText(page)).toBe('Recording · 0 steps');
    await page.locator('#create-invoice').click({ delay: 80 });
    await expect.poll(() => indicatorText(page)).toBe('Recording · 1 step');
    await page.locator('demoshare-recorder button[data-action="stop"]').click();
    await expect.poll(async () => (await status()).recording?.status, { timeout: 60_000 }).toBe('done');

    const demo = (await user.inject({ method: 'GET', url: `/v1/demos/${demoId}` })).json().data as { steps: ApiStep[] };
    expect(demo.steps.map((s) => s.title)).toEqual(['Welcome', 'Click “Create invoice”']);
    const html = (await user.inject({ method: 'GET', url: new URL(demo.steps[1]!.html_url!).pathname })).body;
    expect(html).toContain('Globex Corporation');
    expect(html).not.toContain('Northwind Traders');
    // (The first recording above showed that table unblurred: only this demo's stored files are checked.)
    const stored = await server.ctx.database.executeSql(
      `select id from assets where demo_id = $1 and position(convert_to('Northwind Traders', 'UTF8') in bytes) > 0`,
      [demoId],
    );
    expect(stored.rows).toEqual([]);
    for (const p of browser.context.pages()) if (p.url().includes(`/demos/${demoId}`)) await p.close();
    await page.close();
  });

  it('disconnects by revoking its tokens', async () => {
    const { connection } = await browser.storage<Stored>();
    const ok = await server.app.inject({ method: 'GET', url: '/v1/demos', headers: { authorization: `Bearer ${connection.accessToken}` } });
    expect(ok.statusCode).toBe(200);
    await browser.send({ type: 'disconnect' });
    expect((await status()).connection).toBeNull();
    const revoked = await server.app.inject({ method: 'GET', url: '/v1/demos', headers: { authorization: `Bearer ${connection.accessToken}` } });
    expect(revoked.statusCode).toBe(401);
  });

  it('connects with an API key for headless use, and lists the demos to record into', async () => {
    const refused = await browser.send({ type: 'connect-key', instanceUrl: server.url, apiKey: 'dsk_not_a_key' });
    expect(refused).toMatchObject({ ok: false, error: 'This API key is not valid.' });
    const key = await server.apiKey(['demos:read', 'demos:write'], user);
    const connected = await browser.send({ type: 'connect-key', instanceUrl: server.url, apiKey: key });
    expect(connected).toMatchObject({ ok: true });
    expect((await status()).connection).toMatchObject({ kind: 'key' });
    const demos = await browser.send<{ title: string }[]>({ type: 'list-demos' });
    expect(demos.result!.map((d) => d.title)).toContain('Existing demo');
    await browser.send({ type: 'disconnect' });
  });
});
