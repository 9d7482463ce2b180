/// <reference types="chrome" />
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, sessionCookies } from '../helpers/browser';
import { builtExtension, type ExtensionBrowser, launchWithExtension } from '../helpers/extension';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';

/** Every control the popup shows in one state or another, by element id. */
const CONTROLS = [
  'instance',
  'connect-button',
  'disconnect',
  'mode',
  'demo',
  'step',
  'start',
  'active-text',
  'stop',
  'upload-text',
  'upload-error',
  'retry',
  'discard',
  'done-text',
  'open-editor',
  'new-recording',
] as const;
type Control = (typeof CONTROLS)[number];

/** A recording as the background worker stores it (extension/src/background/store.ts). */
const recording = (status: string, extra: Record<string, unknown> = {}) => ({
  id: 'rec-1',
  tabId: 1,
  status,
  startedAt: Date.now(),
  stepIds: ['a', 'b', 'c'],
  into: { mode: 'new' },
  uploadId: 'upl_1',
  uploaded: 1,
  editorUrl: null,
  error: null,
  ...extra,
});

// The recorder as an instance hands it out (GET /extension/demoshare-recorder.zip), unzipped and loaded into
// Chromium as a user would: its popup must show one state at a time, and it must connect to that instance.
describe.skipIf(!CHROMIUM.path)('the recorder served by the instance, and its popup (Chromium)', () => {
  let server: TestServer;
  let user: TestSession;
  let browser: ExtensionBrowser;
  let served: Buffer;
  let unpacked: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    await builtExtension();
    server = await startTestServer({ selfUrl: true });
    user = await server.signUp();
    const res = await fetch(`${server.url}/extension/demoshare-recorder.zip`);
    expect(res.status).toBe(200);
    served = Buffer.from(await res.arrayBuffer());
    unpacked = mkdtempSync(join(tmpdir(), 'demoshare-served-extension-'));
    for (const [path, data] of Object.entries(unzipSync(served))) {
      mkdirSync(dirname(join(unpacked, path)), { recursive: true });
      writeFileSync(join(unpacked, path), data);
    }
    browser = await launchWithExtension({ width: 1100, height: 800 }, unpacked);
    await browser.context.addCookies(sessionCookies(user, server.url));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (unpacked) rmSync(unpacked, { recursive: true, force: true });
  });

  async function openPopup(): Promise<Page> {
    const page = await browser.context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`chrome-extension://${browser.extensionId}/popup.html`);
    return page;
  }

  /** Which of the popup's controls a person can see. */
  async function visibleControls(popup: Page): Promise<Control[]> {
    const shown: Control[] = [];
    for (const id of CONTROLS) if (await popup.locator(`#${id}`).isVisible()) shown.push(id);
    return shown;
  }

  async function expectState(popup: Page, name: string, controls: Control[]) {
    await expect.poll(() => visibleControls(popup), { message: `the popup in the ${name} state` }).toEqual(controls);
    await popup.locator('body').screenshot({ path: `${SHOTS}/recorder-popup-${name}.png`, animations: 'disabled' });
  }

  it('serves the built extension as a zip, with the instance’s address, revalidated by ETag', async () => {
    const res = await fetch(`${server.url}/extension/demoshare-recorder.zip`);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="demoshare-recorder-\d+\.\d+\.\d+\.zip"$/);
    expect(res.headers.get('cache-control')).toBe('public, no-cache');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${server.url}/extension/demoshare-recorder.zip`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);

    const files = Object.keys(unzipSync(served)).sort();
    expect(files).toEqual(
      [
        'background.js',
        'content.js',
        'icons/icon-128.png',
        'icons/icon-16.png',
        'icons/icon-32.png',
        'icons/icon-48.png',
        'instance.json',
        'manifest.json',
        'oauth-callback.html',
        'oauth-callback.js',
        'popup.css',
        'popup.html',
        'popup.js',
      ].sort(),
    );
    expect(JSON.parse(readFileSync(join(unpacked, 'instance.json'), 'utf8'))).toEqual({ instanceUrl: server.url });
    // The manifest's key gives every copy the id that every instance trusts for signing in.
    expect(browser.extensionId).toBe('hndijdjkhibnckcfpfhekjgiokmoppli');
    const info = await (await fetch(`${server.url}/extension/recorder.json`)).json();
    expect(info).toMatchObject({ extension_id: browser.extensionId, download_url: '/extension/demoshare-recorder.zip', size: served.length, instance_url: server.url });
  });

  it('offers the recorder from the empty demos list and the New demo dialog, and its page downloads the same zip', async () => {
    const page = await browser.context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/demos`);
    await page.getByRole('heading', { name: 'No demos yet' }).waitFor();
    expect(await page.getByRole('button', { name: 'Generate from a web address' }).isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/demos-empty-two-ways.png`, animations: 'disabled' });

    await page.getByRole('button', { name: 'New demo' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New demo' });
    await dialog.getByText('Generate from a web address').waitFor();
    await dialog.getByLabel('Capture with').selectOption('html');
    await dialog.getByText('Reads the page’s HTML without a browser').waitFor();
    await page.screenshot({ path: `${SHOTS}/new-demo-dialog-two-ways.png`, animations: 'disabled' });
    await dialog.getByRole('link', { name: /Record with the browser extension/ }).click();
    await page.waitForURL('**/recorder');
    expect(await page.getByRole('dialog').count()).toBe(0);

    await page.getByRole('heading', { name: 'Install it in Chrome, Edge or Brave' }).waitFor();
    await page.getByText(`${server.url}`, { exact: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}/recorder-install-page.png`, fullPage: true, animations: 'disabled' });
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download the recorder' }).click();
    const file = await (await download).path();
    expect(readFileSync(file).equals(served)).toBe(true);
    await page.close();
  });

  it('shows one state at a time: disconnected, connected, recording, uploading, failed, uploaded', async () => {
    const popup = await openPopup();
    // Disconnected: the address of the instance it came from is filled in.
    await expectState(popup, 'disconnected', ['instance', 'connect-button']);
    expect(await popup.getByLabel('Your Demoshare address').inputValue()).toBe(server.url);

    // Connecting with an API key checks it against the instance the address names.
    await popup.getByText('Use an API key instead').click();
    await popup.getByLabel('API key (with demos:write)').fill(await server.apiKey(['demos:read', 'demos:write'], user));
    await popup.getByRole('button', { name: 'Save key' }).click();
    await expectState(popup, 'connected', ['disconnect', 'mode', 'start']);
    expect(await popup.locator('#instance-name').textContent()).toBe(new URL(server.url).host);

    // Recording into an existing demo shows the demo choice, and only then.
    await popup.getByLabel('Record into').selectOption('append');
    await expect.poll(() => visibleControls(popup)).toEqual(['disconnect', 'mode', 'demo', 'start']);
    await popup.getByLabel('Record into').selectOption('new');

    const tab = await browser.context.newPage();
    await tab.goto(`${server.url}/healthz`);
    expect((await browser.send({ type: 'start', tabId: await browser.tabIdOf(tab) })).ok).toBe(true);
    await expectState(popup, 'recording', ['disconnect', 'active-text', 'stop']);
    expect(await popup.locator('#active-text').textContent()).toBe('Recording · 0 steps');
    expect((await browser.send({ type: 'discard' })).ok).toBe(true);
    await tab.close();

    // The worker's later states, stored as it stores them.
    await browser.setStorage({ recording: recording('uploading') });
    await expectState(popup, 'uploading', ['disconnect', 'upload-text']);
    expect(await popup.locator('#upload-text').textContent()).toBe('Uploading 1 of 3 steps…');

    await browser.setStorage({ recording: recording('failed', { error: 'The server refused the upload (413).' }) });
    await expectState(popup, 'failed', ['disconnect', 'upload-text', 'upload-error', 'retry', 'discard']);

    await browser.setStorage({ recording: recording('done', { stepIds: [], uploaded: 3, editorUrl: `${server.url}/demos/demo_x` }) });
    await expectState(popup, 'uploaded', ['disconnect', 'done-text', 'open-editor', 'new-recording']);
    expect(await popup.locator('#done-text').textContent()).toBe('Uploaded 3 steps.');

    // "Record another" returns to the choice of what to record.
    await popup.getByRole('button', { name: 'Record another' }).click();
    await expectState(popup, 'connected-again', ['disconnect', 'mode', 'start']);
  });
});
