import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestSession } from '../helpers/test-app';

// Translation in real Chromium (issue 30, item 5): a demo translated into French through an XLIFF file and
// approved is played in French with ?lang=fr, in French for a browser set to French with no ?lang=, and in
// the original otherwise. The captured page (an HTML snapshot) shows its French words as well.

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

const SNAPSHOT =
  '<!doctype html><html><head><title>Billing</title></head><body><main>' +
  '<h1 id="greet">Invoices for {{company|your team}}</h1><p id="note">Your trial ends soon</p><button id="save">Save</button></main></body></html>';

const FRENCH: Array<[RegExp, string]> = [
  [/Invoices for/g, 'Factures pour'],
  [/Your trial ends soon/g, 'Votre essai se termine bientôt'],
  [/Your invoices/g, 'Vos factures'],
  [/Keep a <strong>draft<\/strong>/g, 'Gardez un <strong>brouillon</strong>'],
  [/Billing tour/g, 'Visite de la facturation'],
];

// biome-ignore lint/suspicious/noExplicitAny: the test reads API answers field by field, as a client would
type Json = any;

describe.skipIf(!browser)('the player in the viewer’s language (Chromium)', () => {
  let server: TestServer;
  let key: string;
  let shareUrl: string;
  let demoId: string;
  let admin: TestSession;
  const contexts: BrowserContext[] = [];

  const call = async (method: string, path: string, body?: string | Buffer | object, headers: Record<string, string> = {}) => {
    const raw = typeof body === 'string' || body instanceof Buffer;
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined || raw ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : body instanceof Buffer ? new Uint8Array(body) : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text;
  };
  const api = async (method: string, path: string, body?: string | Buffer | object, headers: Record<string, string> = {}): Promise<Json> => {
    const text = await call(method, path, body, headers);
    return text ? JSON.parse(text).data : undefined;
  };

  beforeAll(async () => {
    server = await startTestServer({ selfUrl: true });
    mkdirSync(SHOTS, { recursive: true });
    admin = await server.signUp();
    key = await server.apiKey('all', admin);
    const recording = await api('POST', '/recordings', { step_count: 1 });
    const step = JSON.stringify({
      action: 'click',
      title: 'Your invoices',
      description: 'Keep a draft',
      page_url: 'https://app.example.com/billing',
      viewport: { width: 1280, height: 800 },
      target: { x: 40, y: 120, width: 120, height: 40, selector: '#save', label: 'Save' },
      screenshot: null,
      snapshot: SNAPSHOT,
    });
    const digest = `sha-256=:${createHash('sha256').update(step).digest('base64')}:`;
    await api('PUT', `/recordings/${recording.id}/steps/1`, Buffer.from(step), { 'content-type': 'application/json', 'content-digest': digest });
    demoId = (await api('POST', `/recordings/${recording.id}/complete`)).demo_id as string;
    const demo = await api('GET', `/demos/${demoId}`);
    await api('PATCH', `/demos/${demoId}/steps/${demo.steps[0].id}`, { description_html: '<p>Keep a <strong>draft</strong></p>' });
    await api('PATCH', `/demos/${demoId}`, { title: 'Billing tour' });
    await api('PATCH', `/demos/${demoId}`, { status: 'published' });
    shareUrl = (await api('POST', `/demos/${demoId}/shares`, { name: 'Translated' })).url;

    const xliff = await call('GET', `/demos/${demoId}/translations/export?lang=fr`);
    const translated = xliff.replace(/<source>(.*?)<\/source>/g, (whole, inner: string) => {
      const target = FRENCH.reduce((out, [from, to]) => out.replace(from, to), inner.replace(/<pc ([^>]*)>draft<\/pc>/, '<pc $1>brouillon</pc>'));
      return `${whole}<target>${target.replace('Keep a <pc', 'Gardez un <pc')}</target>`;
    });
    await api('POST', `/demos/${demoId}/translations/import`, translated, { 'content-type': 'application/xliff+xml' });
    await api('PATCH', `/demos/${demoId}/translations/fr`, { status: 'reviewed' });
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  async function open(locale: string, url: string): Promise<Page> {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 800 }, locale });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(url);
    return page;
  }

  async function snapshotFrame(page: Page): Promise<Frame> {
    await page.locator('iframe').first().waitFor();
    await expect.poll(() => page.frames().find((f) => f !== page.mainFrame() && f.url() !== 'about:blank') !== undefined).toBe(true);
    for (;;) {
      for (const frame of page.frames()) {
        if (frame !== page.mainFrame() && (await frame.locator('#greet').count().catch(() => 0))) return frame;
      }
      await page.waitForTimeout(100);
    }
  }

  const title = (page: Page) => page.locator('#ds-step-title').textContent();

  it('plays French with ?lang=fr, text, rich text and captured page', async () => {
    const page = await open('en-US', `${shareUrl}?lang=fr`);
    await expect.poll(() => title(page)).toBe('Vos factures');
    expect(await page.locator('#ds-step-text strong').textContent()).toBe('brouillon');
    expect(await page.locator('#ds-step-text').textContent()).toBe('Gardez un brouillon');
    const frame = await snapshotFrame(page);
    // The variable inside the translated page text is still filled by the player: here, its fallback.
    await expect.poll(() => frame.locator('#greet').textContent()).toBe('Factures pour your team');
    expect(await frame.locator('#note').textContent()).toBe('Votre essai se termine bientôt');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await page.screenshot({ path: `${SHOTS}/player-translation-fr.png` });
  });

  it('plays French for a browser set to French, with no ?lang=', async () => {
    const page = await open('fr-FR', shareUrl);
    await expect.poll(() => title(page)).toBe('Vos factures');
    const frame = await snapshotFrame(page);
    await expect.poll(() => frame.locator('#note').textContent()).toBe('Votre essai se termine bientôt');
  });

  it('plays the original for an English browser, and for a language the demo does not have', async () => {
    for (const [locale, url] of [
      ['en-US', shareUrl],
      ['fr-FR', `${shareUrl}?lang=en`],
    ] as const) {
      const page = await open(locale, url);
      await expect.poll(() => title(page)).toBe('Your invoices');
      const frame = await snapshotFrame(page);
      await expect.poll(() => frame.locator('#greet').textContent()).toBe('Invoices for your team');
      expect(await page.locator('#ds-step-text').textContent()).toBe('Keep a draft');
    }
  });

  it('lists the language in the editor’s Translations dialog and opens its review (1280 and 390 px)', async () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const { context, page } = await signedInPage(browser!, server.url, admin, viewport);
      contexts.push(context);
      await page.goto(`${server.url}/demos/${demoId}`);
      await page.getByRole('button', { name: 'More' }).click();
      await page.getByRole('menuitem', { name: 'Translations' }).click();
      const dialog = page.getByRole('dialog', { name: 'Translations' });
      const item = dialog.getByRole('listitem').filter({ hasText: 'fr' });
      await item.getByText('Shown to viewers').waitFor();
      await page.screenshot({ path: `${SHOTS}/translations-dialog-${viewport.width}.png` });
      await dialog.getByRole('button', { name: 'Review fr' }).click();
      const review = page.getByRole('dialog', { name: 'Translation: fr' });
      await expect.poll(() => review.getByRole('textbox', { name: 'Translation of Step 1: title' }).inputValue()).toBe('Vos factures');
      await page.screenshot({ path: `${SHOTS}/translations-review-${viewport.width}.png` });
    }
  });
});
