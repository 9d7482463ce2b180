import { mkdirSync } from 'node:fs';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationResult } from '../../src/generation/generation.types';
import { launchBrowser, overflowing, sessionCookies } from '../helpers/browser';
import { makePng } from '../helpers/images';
import { waitForDemo } from '../helpers/demos';
import { startTestServer, type TestServer } from '../helpers/server';
import { bearer, type TestSession } from '../helpers/test-app';

// "Edit page" in the editor (page-edit.tsx): a click on a captured page's text edits it in place, a click on
// a banner and Hide element hides it; each is a page patch saved on the step, undone and redone through the
// editor's history. The player then shows the same page: the server applies the patches to the snapshot.

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

const SNAPSHOT = `<!doctype html><html><head><title>Acme billing</title><style>
body{margin:0;font:18px/1.5 system-ui,sans-serif;color:#1d2939;background:#f8fafc}
header{padding:28px 48px;background:#312e81;color:#fff}
h1{margin:0;font-size:40px}
.trial{margin:24px 48px;padding:16px 20px;background:#fef3c7;border:1px solid #f59e0b;border-radius:8px;font-weight:600}
main{padding:0 48px}
.card{background:#fff;border:1px solid #e4e7ec;border-radius:12px;padding:24px;max-width:560px}
</style></head><body>
<header><h1 id="headline">Invoices for Globex</h1></header>
<p class="trial">Your trial ends in 3 days: upgrade now</p>
<main><div class="card"><img id="logo" alt="Globex" width="160" height="40" src="data:image/png;base64,${makePng(16, 4, [120, 120, 120]).toString('base64')}"><h2>March invoice</h2><p id="amount">Total due: $1,240.00</p></div></main>
</body></html>`;

function generationResult(url: string): GenerationResult {
  return {
    captureMode: 'html',
    writer: 'builtin',
    title: 'Billing tour',
    warnings: [],
    pages: [url],
    steps: [
      {
        title: 'Your invoices',
        description: 'Every invoice in one place.',
        pageUrl: url,
        html: SNAPSHOT,
        width: 1280,
        height: 800,
        hotspots: [{ x: 0.1, y: 0.1, width: 0.2, height: 0.1, selector: '#amount', label: 'Amount', tooltip: 'What is due', action: { type: 'next' } }],
      },
    ],
  };
}

describe.skipIf(!browser)('Edit page: text and hidden elements of an HTML capture (Chromium)', () => {
  let server: TestServer;
  let session: TestSession;
  let key: string;
  let demoId: string;

  beforeAll(async () => {
    server = await startTestServer({ jobs: true, selfUrl: true, generator: async (options) => generationResult(options.url) });
    session = await server.signUp();
    key = await server.apiKey('all', session);
    mkdirSync(SHOTS, { recursive: true });
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/demos',
      headers: bearer(key),
      payload: { source_url: 'https://acme.example/billing', type: 'interactive', generate_with_ai: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    demoId = res.json().data.id;
    await waitForDemo(server, key, demoId, (d) => d.status !== 'generating');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const api = async (method: string, url: string, payload?: object) => {
    const res = await server.app.inject({ method: method as 'GET', url: `/v1${url}`, headers: bearer(key), ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().data;
  };
  const patches = async () => (await api('GET', `/demos/${demoId}`)).steps[0].patches as { selector: string; op: string; value?: string }[];

  async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
    for (let i = 0; i < 150; i++) {
      const value = await read();
      if (ok(value)) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('condition never held');
  }

  interface FrameCheck {
    /** An element that must be hidden (display: none). */
    hidden?: string;
    /** An element that must be there and shown. */
    shown?: string;
    /** An image that must come from an uploaded asset and be loaded at this width. */
    image?: { selector: string; width: number };
  }

  /**
   * The document of the editor's page-edit frame once it shows `text` (and passes `check`). The frame is
   * made again whenever the step's edits change, so one that goes away while it is read is looked up again.
   */
  async function editFrame(page: Page, text: string, check: FrameCheck = {}): Promise<Frame> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const handle = await page.waitForSelector('.page-edit iframe.snapshot-frame', { state: 'visible', timeout: 5_000 });
        const frame = await handle.contentFrame();
        const ready = await frame?.evaluate(
          ({ text, check }) => {
            if (!document.body?.textContent?.includes(text)) return false;
            const display = (selector: string) => {
              const element = document.querySelector(selector);
              return element ? getComputedStyle(element).display : null;
            };
            if (check.hidden && display(check.hidden) !== 'none') return false;
            if (check.shown && (display(check.shown) ?? 'none') === 'none') return false;
            if (check.image) {
              const img = document.querySelector<HTMLImageElement>(check.image.selector);
              if (!img?.src.includes('/assets/ast_') || !img.complete || img.naturalWidth !== check.image.width) return false;
            }
            return true;
          },
          { text, check },
        );
        if (frame && ready) return frame;
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
      if (Date.now() > deadline) throw new Error(`the page-edit frame never showed ${text} (${JSON.stringify(check)})`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  /** Clicks the middle of `selector`'s element of the frame, through the picking layer over it. */
  async function clickElement(page: Page, frame: Frame, selector: string) {
    const layer = (await page.getByTestId('page-edit-layer').boundingBox())!;
    const r = await frame.evaluate((s) => {
      const box = document.querySelector(s)!.getBoundingClientRect();
      return { x: box.left + Math.min(box.width / 2, 60), y: box.top + box.height / 2 };
    }, selector);
    const scale = layer.width / 1280;
    await page.mouse.move(layer.x + r.x * scale, layer.y + r.y * scale);
    await page.mouse.click(layer.x + r.x * scale, layer.y + r.y * scale);
  }

  it('edits a text and hides a banner in the editor; Undo and Redo; the player shows the same page', async () => {
    const context = await browser!.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addCookies(sessionCookies(session, server.url));
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.url}/demos/${demoId}`);
    await page.getByRole('button', { name: 'Edit page' }).click();
    let frame = await editFrame(page, 'Invoices for Globex');

    // Hover outlines the element under the pointer; a click on a heading opens its text in place.
    await clickElement(page, frame, '#headline');
    const editor = page.getByRole('textbox', { name: "The element's text" });
    await editor.waitFor();
    expect(await editor.inputValue()).toBe('Invoices for Globex');
    await editor.fill('Invoices for <b>Initech</b> & partners');
    await editor.press('Enter');
    await until(patches, (p) => p.length === 1);
    expect(await patches()).toEqual([{ selector: '#headline', op: 'text', value: 'Invoices for <b>Initech</b> & partners' }]);
    // The frame reloads with the server's patched page: the value shows as text, not markup.
    frame = await editFrame(page, 'Invoices for <b>Initech</b> & partners');
    expect(await frame.evaluate(() => document.querySelectorAll('#headline b').length)).toBe(0);

    // A click on the banner, then Hide element.
    await clickElement(page, frame, 'p.trial');
    await page.getByRole('button', { name: 'Hide element' }).click();
    await until(patches, (p) => p.length === 2);
    expect((await patches())[1]).toEqual({ selector: 'body > p', op: 'hide' });
    frame = await editFrame(page, 'Initech', { hidden: 'p.trial' });
    await page.getByText('Edits on this page (2)').waitFor();
    await page.screenshot({ path: `${SHOTS}/page-edit-editor.png` });

    // The editor's history: Undo takes the hide back, Redo makes it again.
    await page.getByRole('button', { name: 'Undo' }).click();
    await until(patches, (p) => p.length === 1);
    frame = await editFrame(page, 'Your trial ends', { shown: 'p.trial' });
    await page.getByRole('button', { name: 'Redo' }).click();
    await until(patches, (p) => p.length === 2);
    frame = await editFrame(page, 'Initech', { hidden: 'p.trial' });

    // A click on the logo, then Replace image with an upload: the page shows the new image from the server.
    await clickElement(page, frame, '#logo');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Replace image' }).click()]);
    await chooser.setFiles({ name: 'initech.png', mimeType: 'image/png', buffer: makePng(64, 16, [220, 38, 38]) });
    await until(patches, (p) => p.length === 3);
    expect((await patches())[2]).toMatchObject({ selector: '#logo', op: 'image' });
    frame = await editFrame(page, 'Initech', { image: { selector: '#logo', width: 64 } });
    await page.screenshot({ path: `${SHOTS}/page-edit-editor-image.png` });

    // A phone: the page and its panel fit the width, nothing runs off the side.
    await page.setViewportSize({ width: 390, height: 844 });
    frame = await editFrame(page, 'Initech');
    await page.getByText('Edits on this page (3)').scrollIntoViewIfNeeded();
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/page-edit-editor-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1400, height: 900 });
    frame = await editFrame(page, 'Initech');

    // Published and shared: the player shows the page as the editor did.
    await api('POST', `/demos/${demoId}/publish`);
    const share = await api('POST', `/demos/${demoId}/shares`, { name: 'Page edits' });
    const viewer = await browser!.newContext({ viewport: { width: 1280, height: 860 } });
    const player = await viewer.newPage();
    player.setDefaultTimeout(30_000);
    await player.goto(share.url);
    const snapshot = await player.waitForSelector('iframe.ds-snapshot');
    const shown = (await snapshot.contentFrame())!;
    await shown.waitForFunction(() => document.body?.textContent?.includes('Initech'), undefined, { timeout: 20_000 });
    // The new image loads in the player too, through the link's own asset route.
    await shown.waitForFunction(() => document.querySelector<HTMLImageElement>('#logo')!.naturalWidth === 64);
    const facts = await shown.evaluate(() => ({
      headline: document.querySelector('#headline')!.textContent,
      markup: document.querySelectorAll('#headline b, script').length,
      banner: getComputedStyle(document.querySelector('p.trial')!).display,
      amount: document.querySelector('#amount')!.textContent,
    }));
    expect(facts).toEqual({ headline: 'Invoices for <b>Initech</b> & partners', markup: 0, banner: 'none', amount: 'Total due: $1,240.00' });
    // The editor's page and the player's are the same document, but for where the new image is fetched from.
    const editorHtml = await frame.evaluate(() => document.documentElement.outerHTML);
    const playerHtml = await shown.evaluate(() => document.documentElement.outerHTML);
    const normalise = (html: string) => html.replace(/src="[^"]*\/assets\/(ast_[^"]+)"/, 'src="ASSET/$1"');
    expect(normalise(playerHtml)).toBe(normalise(editorHtml));
    await player.waitForTimeout(300);
    await player.screenshot({ path: `${SHOTS}/page-edit-player.png` });
    await viewer.close();
    await context.close();
  });
});
