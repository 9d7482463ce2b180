import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { makeMockupPng } from '../helpers/images';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestSession } from '../helpers/test-app';

// Personalisation in real Chromium: a demo whose step texts and captured page (an HTML snapshot) hold
// variables, played with malicious values from each source (the link's variables, URL parameters, the
// identification gate, a lead form). No script may run (no dialog, no window flag) and every value must
// show literally, as text.

const SHOTS = 'test-results/screenshots';
const DESKTOP = { width: 1280, height: 800 };

const browser: Browser | null = await launchBrowser();

/** Each sets a flag on the top window and opens a dialog if it ever runs. */
const PAYLOADS = {
  img: '<img src=x onerror="top.__xss=1;alert(1)">',
  script: '"><script>top.__xss=2;alert(2)</script>',
  close: '</script><script>top.__xss=3;alert(3)</script>',
  js: 'javascript:top.__xss=4;alert(4)',
  svg: "'><svg onload=\"top.__xss=5;alert(5)\">",
};

/** The captured page of step 1: its words carry variables, as a real page edited in the editor would. */
const SNAPSHOT =
  '<!doctype html><html><head><title>Acme app</title></head><body><main>' +
  '<h1 id="greet">Hello {{company|friend}}</h1><p id="who">Signed in as {{first_name|there}}</p>' +
  '<button id="start">Start</button></main></body></html>';

// biome-ignore lint/suspicious/noExplicitAny: the test reads API answers field by field, as a client would
type Json = any;

describe.skipIf(!browser)('personalisation variables in the player (Chromium), with malicious values', () => {
  let server: TestServer;
  let key: string;
  let admin: TestSession;
  let demoId: string;
  const contexts: BrowserContext[] = [];

  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Json> => {
    const raw = body instanceof Buffer;
    const payload = body === undefined ? undefined : raw ? new Uint8Array(body) : JSON.stringify(body);
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined || raw ? {} : { 'content-type': 'application/json' }), ...headers },
      body: payload,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text).data : undefined;
  };

  /** Step 1 is an HTML snapshot with no screenshot: uploaded as a recording, as the extension does. */
  async function recordSnapshotDemo(): Promise<string> {
    const recording = await api('POST', '/recordings', { step_count: 1 });
    const step = JSON.stringify({
      action: 'click',
      title: 'Welcome, {{company|friend}}',
      description: 'Made for {{first_name|you}} ({{name|a guest}})',
      page_url: 'https://app.example.com/home',
      viewport: { width: 1280, height: 800 },
      target: { x: 40, y: 120, width: 120, height: 40, selector: '#start', label: 'Start' },
      screenshot: null,
      snapshot: SNAPSHOT,
    });
    const digest = `sha-256=:${createHash('sha256').update(step).digest('base64')}:`;
    await api('PUT', `/recordings/${recording.id}/steps/1`, Buffer.from(step), { 'content-type': 'application/json', 'content-digest': digest });
    const done = await api('POST', `/recordings/${recording.id}/complete`);
    return done.demo_id as string;
  }

  beforeAll(async () => {
    server = await startTestServer({ selfUrl: true });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    key = await server.apiKey('all', admin);
    demoId = await recordSnapshotDemo();
    // Step 2: a lead form asking for the viewer's role; step 3: a screenshot step that says it back.
    await api('POST', `/demos/${demoId}/steps`, {
      kind: 'form',
      title: 'One question, {{first_name|friend}}',
      content: {
        buttons: [{ id: 'send', label: 'Send', action: { type: 'submit' } }],
        form: { fields: [{ name: 'role', label: 'Your role', type: 'text', required: true }], submit_label: 'Send' },
      },
    });
    const last = await api('POST', `/demos/${demoId}/steps`, makeMockupPng(1280, 800, [20, 120, 140]), { 'content-type': 'image/png' });
    await api('PATCH', `/demos/${demoId}/steps/${last.id}`, { title: 'Your role: {{role|unknown}}', description: 'At {{company|your company}}' });
    await api('PATCH', `/demos/${demoId}`, { title: 'A tour for {{company|your team}}' });
    await api('PATCH', `/demos/${demoId}`, { status: 'published' });
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  /** A page that records every dialog (none may open) and any script's flag. */
  async function open(): Promise<{ page: Page; dialogs: string[] }> {
    const context = await browser!.newContext({ viewport: DESKTOP });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    return { page, dialogs };
  }

  const snapshotFrame = async (page: Page): Promise<Frame> => {
    await page.locator('iframe').first().waitFor();
    for (let i = 0; i < 100; i++) {
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        const ready = await frame.locator('#greet').count().catch(() => 0);
        if (ready) return frame;
      }
      await page.waitForTimeout(100);
    }
    throw new Error('the snapshot frame never showed #greet');
  };

  /** No script ran, anywhere: no dialog, no flag, no element made from a value. */
  async function expectNoScript(page: Page, dialogs: string[]) {
    // Give an onerror (a failing image load) time to fire, were there such an image.
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
    for (const frame of page.frames()) {
      const found = await frame
        .evaluate(() => ({
          flag: (window as unknown as { __xss?: number }).__xss ?? null,
          injected: document.querySelectorAll('img[src="x"], svg[onload], script:not([src]):not([type="application/json"])').length,
          js: [...document.querySelectorAll('a[href]')].filter((a) => /^javascript:/i.test(a.getAttribute('href') ?? '')).length,
        }))
        .catch(() => null);
      if (found) expect(found, frame.url()).toEqual({ flag: null, injected: 0, js: 0 });
    }
  }

  const stepTitle = (page: Page) => page.locator('#ds-step-title');
  const stepText = (page: Page) => page.locator('#ds-step-text');

  it('shows link variables set through the API as text', async () => {
    const share = await api('POST', `/demos/${demoId}/shares`, {
      name: 'XSS through link variables',
      variables: { company: PAYLOADS.img, first_name: PAYLOADS.script },
    });
    const { page, dialogs } = await open();
    await page.goto(share.url);
    await expect.poll(() => stepTitle(page).textContent()).toBe(`Welcome, ${PAYLOADS.img}`);
    expect(await stepText(page).textContent()).toBe(`Made for ${PAYLOADS.script} (a guest)`);
    const frame = await snapshotFrame(page);
    await expect.poll(() => frame.locator('#greet').textContent()).toBe(`Hello ${PAYLOADS.img}`);
    expect(await frame.locator('#who').textContent()).toBe(`Signed in as ${PAYLOADS.script}`);
    await page.screenshot({ path: `${SHOTS}/player-variables-link.png` });
    await expectNoScript(page, dialogs);
  });

  it('shows URL parameters as text, over the link’s values', async () => {
    const share = await api('POST', `/demos/${demoId}/shares`, { name: 'XSS through URL', variables: { company: 'Acme' } });
    const { page, dialogs } = await open();
    const url = new URL(share.url);
    url.searchParams.set('company', PAYLOADS.close);
    url.searchParams.set('First-Name', PAYLOADS.js);
    await page.goto(url.href);
    await expect.poll(() => stepTitle(page).textContent()).toBe(`Welcome, ${PAYLOADS.close}`);
    expect(await stepText(page).textContent()).toBe(`Made for ${PAYLOADS.js} (a guest)`);
    const frame = await snapshotFrame(page);
    await expect.poll(() => frame.locator('#greet').textContent()).toBe(`Hello ${PAYLOADS.close}`);
    expect(await frame.locator('#who').textContent()).toBe(`Signed in as ${PAYLOADS.js}`);
    // The demo's title, in the header and the tab, is filled the same way.
    expect(await page.locator('.ds-top .ds-title').textContent()).toBe(`A tour for ${PAYLOADS.close}`);
    expect(await page.title()).toContain(`A tour for ${PAYLOADS.close}`);
    await page.screenshot({ path: `${SHOTS}/player-variables-url.png` });
    await expectNoScript(page, dialogs);
  });

  it('shows the identification gate’s name and a lead form’s answer as text', async () => {
    const share = await api('POST', `/demos/${demoId}/shares`, { name: 'XSS through forms', require_identification: true });
    const { page, dialogs } = await open();
    await page.goto(share.url);
    await page.getByLabel('Your name').fill(PAYLOADS.svg);
    await page.getByLabel(/e-mail/i).fill('dana@example.com');
    await page.getByRole('button', { name: /continue|view|start|open/i }).first().click();
    // first_name is the name's first word; name the whole.
    await expect.poll(() => stepText(page).textContent()).toBe(`Made for ${PAYLOADS.svg.split(/\s+/)[0]} (${PAYLOADS.svg})`);
    const frame = await snapshotFrame(page);
    await expect.poll(() => frame.locator('#who').textContent()).toBe(`Signed in as ${PAYLOADS.svg.split(/\s+/)[0]}`);
    await expectNoScript(page, dialogs);

    // On to the form: the answer fills the next step.
    await page.keyboard.press('ArrowRight');
    await page.getByLabel('Your role').fill(PAYLOADS.img);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => stepTitle(page).textContent()).toBe(`Your role: ${PAYLOADS.img}`);
    expect(await stepText(page).textContent()).toBe('At your company');
    await page.screenshot({ path: `${SHOTS}/player-variables-form.png` });
    await expectNoScript(page, dialogs);
  });

  it('sets a link’s personalisation in the share form and shows it in the links list', async () => {
    const { context, page } = await signedInPage(browser!, server.url, admin, DESKTOP);
    contexts.push(context);
    await page.goto(`${server.url}/demos/${demoId}`);
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('button', { name: /New link/ }).click();
    const form = page.getByRole('form', { name: 'New share link' });
    await form.getByLabel(/^Name/).fill('Acme: Dana');
    // A bad name first: the server's 400 names it under the field.
    await form.getByLabel(/^Personalisation/).fill('Company-X = Acme');
    await form.getByRole('button', { name: 'Create link' }).click();
    await form.getByText(/Company-X: must be a variable name/i).waitFor();
    await form.getByLabel(/^Personalisation/).fill(`company = Acme\nfirst_name = ${PAYLOADS.img}`);
    await form.getByRole('button', { name: 'Create link' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('company: Acme').first().waitFor();
    await page.getByText(`first_name: ${PAYLOADS.img.slice(0, 23)}…`).first().waitFor();
    const links = (await api('GET', `/demos/${demoId}/shares`)) as Array<{ name: string; variables: Record<string, string> }>;
    expect(links.find((l) => l.name === 'Acme: Dana')?.variables).toEqual({ company: 'Acme', first_name: PAYLOADS.img });
    await page.screenshot({ path: `${SHOTS}/share-form-variables.png` });
    expect(await page.locator('img[src="x"]').count()).toBe(0);
  });
});
