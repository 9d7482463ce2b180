import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQueuedGeneration } from '../helpers/demos';
import type { GenerationResult } from '../../src/generation/generation.types';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { bearer, type TestSession } from '../helpers/test-app';

// The editor's blur tool: areas drawn on a step's screenshot, and elements picked in its page snapshot,
// are blurred for good by the API; the editor then shows the new image and snapshot.

const SHOTS = 'test-results/screenshots';
const SECRET = 'jane.cooper@acme-secret.test';
const PAGE = { width: 1280, height: 800 };
const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>Billing</title><style>
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#101828;background:#f7f8fa}
header{background:#fff;border-bottom:1px solid #e4e7ec;padding:16px 32px;font-weight:600}
main{padding:32px;display:grid;grid-template-columns:1fr 1fr;gap:24px}
.card{background:#fff;border:1px solid #e4e7ec;border-radius:12px;padding:24px}
h2{margin:0 0 8px;font-size:14px;color:#475467;text-transform:uppercase;letter-spacing:.04em}
.big{font-size:44px;font-weight:700;margin:0}
.email{font-size:20px}
</style></head><body>
<header>Ledgerly · Billing</header>
<main>
<section class="card" id="customer"><h2>Customer</h2><p class="name">Jane Cooper</p><p class="email">${SECRET}</p></section>
<section class="card" id="balance"><h2>Balance</h2><p class="big">$12,480.33</p><p>Due on 1 December</p></section>
</main></body></html>`;

type Box = { x: number; y: number; width: number; height: number };
const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('blurring in the demo editor (Chromium)', () => {
  let server: TestServer;
  let session: TestSession;
  let key: string;
  let demoId: string;
  let screenshot: Buffer;
  /** Where the balance and the e-mail are on the page, in fractions of it. */
  let boxes: { balance: Box; email: Box };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // The screenshot the steps carry is the snapshot itself, rendered: the two show the same page.
    const renderer = await browser!.newPage({ viewport: PAGE });
    await renderer.setContent(HTML);
    screenshot = await renderer.screenshot({ type: 'png' });
    boxes = await renderer.evaluate(
      ({ width, height }) => {
        const box = (selector: string) => {
          const r = document.querySelector(selector)!.getBoundingClientRect();
          return { x: r.left / width, y: r.top / height, width: r.width / width, height: r.height / height };
        };
        return { balance: box('.big'), email: box('.email') };
      },
      PAGE,
    );
    await renderer.close();

    const result = (url: string): GenerationResult => ({
      captureMode: 'chromium',
      writer: 'builtin',
      title: 'Billing tour',
      warnings: [],
      pages: [url],
      steps: [
        { title: 'Billing overview', description: 'A screenshot.', pageUrl: url, image: { data: screenshot, contentType: 'image/png', ...PAGE }, ...PAGE, hotspots: [] },
        {
          title: 'Customer details',
          description: 'A screenshot and its page.',
          pageUrl: url,
          image: { data: screenshot, contentType: 'image/png', ...PAGE },
          html: HTML,
          ...PAGE,
          hotspots: [],
        },
        { title: 'Page only', description: 'A page snapshot.', pageUrl: url, html: HTML, ...PAGE, hotspots: [] },
      ],
    });
    // No job workers: the generation runs here, to its end, so nothing is left working when the server closes.
    server = await startTestServer({ generator: async (options) => result(options.url) });
    session = await server.signUp();
    key = await server.apiKey('all', session);
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/demos',
      headers: bearer(key),
      payload: { source_url: 'https://ledgerly.example/billing', type: 'interactive', generate_with_ai: true },
    });
    demoId = res.json().data.id;
    await runQueuedGeneration(server.ctx, demoId);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  interface ApiStep {
    id: string;
    number: number;
    image_url: string | null;
    html_url: string | null;
  }
  const readSteps = async (page: Page): Promise<ApiStep[]> =>
    page.evaluate(async (id) => (await (await fetch(`/v1/demos/${id}`)).json()).data.steps, demoId);
  const path = (url: string) => new URL(url).pathname;
  // Past the browser's cache, which keeps an asset it has loaded for a day (assets never change): the server is asked.
  const statusOf = (page: Page, url: string) => page.evaluate(async (u) => (await fetch(u, { cache: 'no-store' })).status, path(url));
  const bytesOf = async (page: Page, url: string) =>
    Buffer.from(await page.evaluate(async (u) => [...new Uint8Array(await (await fetch(u)).arrayBuffer())], path(url)));

  async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
    for (let i = 0; i < 150; i++) {
      const value = await read();
      if (ok(value)) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('condition never held');
  }

  /** Variance of the red channel inside a box of a PNG (fractions): text gives thousands, a blur little. */
  async function variance(png: Buffer, box: Box): Promise<number> {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    let sum = 0;
    let squares = 0;
    let n = 0;
    for (let y = Math.ceil(box.y * info.height); y < Math.floor((box.y + box.height) * info.height); y++) {
      for (let x = Math.ceil(box.x * info.width); x < Math.floor((box.x + box.width) * info.width); x++) {
        const v = data[(y * info.width + x) * info.channels]!;
        sum += v;
        squares += v * v;
        n++;
      }
    }
    return squares / n - (sum / n) ** 2;
  }

  /** Drags on the canvas from one point to another, both in fractions of the step. */
  async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
    const canvas = (await page.locator('.editor-stage .canvas').boundingBox())!;
    await page.mouse.move(canvas.x + from.x * canvas.width, canvas.y + from.y * canvas.height);
    await page.mouse.down();
    await page.mouse.move(canvas.x + to.x * canvas.width, canvas.y + to.y * canvas.height, { steps: 6 });
    await page.mouse.up();
  }

  const around = (b: Box, pad = 0.01) => ({ from: { x: b.x - pad, y: b.y - pad }, to: { x: b.x + b.width + pad, y: b.y + b.height + pad } });

  it('draws areas on a screenshot, takes one back, applies after confirming: the canvas shows the new image', async () => {
    const { context, page } = await signedInPage(browser!, server.url, session, { width: 1440, height: 900 });
    await page.goto(`${server.url}/demos/${demoId}`);
    await page.getByRole('textbox', { name: 'Demo title' }).waitFor();
    const [before] = await readSteps(page);
    const image = page.locator('.editor-stage img.canvas-image');
    expect(await image.getAttribute('src')).toBe(path(before!.image_url!));

    await page.getByRole('button', { name: 'Blur', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Blur' });
    await panel.getByText('Nothing marked yet.').waitFor();
    // A slip on the header, then the balance; Undo takes the last one back; then the e-mail.
    const balance = around(boxes.balance);
    await drag(page, balance.from, balance.to);
    await drag(page, { x: 0.3, y: 0.01 }, { x: 0.5, y: 0.05 });
    await expect.poll(() => panel.getByRole('listitem').count()).toBe(2);
    await panel.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => panel.getByRole('listitem').count()).toBe(1);
    const email = around(boxes.email);
    await drag(page, email.from, email.to);
    await expect.poll(() => panel.getByRole('listitem').count()).toBe(2);
    // The keyboard can move a marked area: focus it, arrows, and back.
    const first = page.getByRole('button', { name: /^Blur 1: Area/ });
    await first.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await page.screenshot({ path: `${SHOTS}/demo-editor-blur-marked.png` });

    await panel.getByRole('button', { name: 'Apply blur' }).click();
    const dialog = page.getByRole('dialog', { name: 'Blur for good?' });
    await dialog.getByText('cannot be undone').waitFor();
    await page.waitForTimeout(400); // the dialog's fade-in
    await page.screenshot({ path: `${SHOTS}/demo-editor-blur-confirm.png` });
    await dialog.getByRole('button', { name: 'Apply blur' }).click();

    const [after] = await until(
      () => readSteps(page),
      (steps) => steps[0]!.image_url !== before!.image_url,
    );
    // The canvas shows the new asset, loaded; the old one is gone.
    await until(
      () => image.getAttribute('src'),
      (src) => src === path(after!.image_url!),
    );
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.editor-stage img.canvas-image');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    expect(await statusOf(page, before!.image_url!)).toBe(404);
    const stored = await bytesOf(page, after!.image_url!);
    for (const box of [boxes.balance, boxes.email]) {
      expect(await variance(stored, box)).toBeLessThan((await variance(screenshot, box)) / 10);
    }
    await page.getByRole('region', { name: 'Blur' }).waitFor({ state: 'detached' });
    await page.getByText('Step 1 blurred. The original is deleted.').waitFor();
    await page.screenshot({ path: `${SHOTS}/demo-editor-blur-applied.png` });
    await context.close();
  });

  it('blurs an element picked in the page snapshot, in the snapshot and at its place in the screenshot', async () => {
    const { context, page } = await signedInPage(browser!, server.url, session, { width: 1440, height: 900 });
    await page.goto(`${server.url}/demos/${demoId}`);
    await page.getByRole('button', { name: /^2\. Customer details/ }).click();
    const before = (await readSteps(page))[1]!;

    await page.getByRole('button', { name: 'Blur', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Blur' });
    await panel.getByRole('button', { name: 'Blur an element' }).click();
    const frame = page.locator('.editor-stage .canvas iframe.snapshot-frame');
    await frame.waitFor({ state: 'visible' });
    await page.waitForFunction(() => getComputedStyle(document.querySelector('.editor-stage iframe.snapshot-frame')!).visibility === 'visible');
    const canvas = (await page.locator('.editor-stage .canvas').boundingBox())!;
    const target = { x: canvas.x + (boxes.email.x + 0.02) * canvas.width, y: canvas.y + (boxes.email.y + boxes.email.height / 2) * canvas.height };
    await page.mouse.move(target.x, target.y);
    await page.locator('.blur-pick').waitFor();
    await page.screenshot({ path: `${SHOTS}/demo-editor-blur-pick.png` });
    await page.mouse.click(target.x, target.y);
    await panel.getByText(`Element p “${SECRET.slice(0, 24)}`).waitFor();

    await panel.getByRole('button', { name: 'Apply blur' }).click();
    const dialog = page.getByRole('dialog', { name: 'Blur for good?' });
    await dialog.getByText('screenshot and page snapshot').waitFor();
    await dialog.getByRole('button', { name: 'Apply blur' }).click();
    const after = (
      await until(
        () => readSteps(page),
        (steps) => steps[1]!.html_url !== before.html_url,
      )
    )[1]!;
    expect(after.image_url).not.toBe(before.image_url);
    const html = (await bytesOf(page, after.html_url!)).toString('utf8');
    expect(html).not.toContain(SECRET);
    expect(html).toContain('Jane Cooper');
    expect(await statusOf(page, before.html_url!)).toBe(404);
    expect(await variance(await bytesOf(page, after.image_url!), boxes.email)).toBeLessThan((await variance(screenshot, boxes.email)) / 10);
    // Back on the screenshot, which now has the e-mail blurred.
    await page.getByText('Step 2 blurred. The original is deleted.').waitFor();
    await until(
      () => page.locator('.editor-stage img.canvas-image').getAttribute('src'),
      (src) => src === path(after.image_url!),
    );
    await page.screenshot({ path: `${SHOTS}/demo-editor-blur-element-applied.png` });
    await context.close();
  });

  it('picks an element with the keyboard on a snapshot-only step', async () => {
    const { context, page } = await signedInPage(browser!, server.url, session, { width: 1440, height: 900 });
    await page.goto(`${server.url}/demos/${demoId}`);
    await page.getByRole('button', { name: /^3\. Page only/ }).click();
    const before = (await readSteps(page))[2]!;
    await page.getByRole('button', { name: 'Blur', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Blur' });
    // No screenshot: no areas and no look to choose, only elements.
    expect(await panel.getByRole('button', { name: 'Add an area' }).count()).toBe(0);
    await page.waitForFunction(() => getComputedStyle(document.querySelector('.editor-stage iframe.snapshot-frame')!).visibility === 'visible');
    const layer = page.getByRole('application', { name: /Page snapshot/ });
    await layer.focus();
    const status = page.locator('#blur-layer-status');
    for (let i = 0; i < 20 && !((await status.textContent()) ?? '').includes('jane.cooper'); i++) await page.keyboard.press('ArrowDown');
    expect(await status.textContent()).toContain(`p “${SECRET.slice(0, 24)}`);
    await page.keyboard.press('Enter');
    await panel.getByRole('listitem').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/demo-editor-blur-keyboard.png` });
    await panel.getByRole('button', { name: 'Apply blur' }).click();
    await page.getByRole('dialog', { name: 'Blur for good?' }).getByRole('button', { name: 'Apply blur' }).click();
    const after = (
      await until(
        () => readSteps(page),
        (steps) => steps[2]!.html_url !== before.html_url,
      )
    )[2]!;
    expect(after.image_url).toBeNull();
    expect((await bytesOf(page, after.html_url!)).toString('utf8')).not.toContain(SECRET);
    // The canvas shows the new snapshot: the e-mail's element is blurred and holds bullets.
    const shown = page.frameLocator('.editor-stage iframe.snapshot-frame');
    await until(
      async () => (await shown.locator('.email').textContent()) ?? '',
      (text) => text === '•'.repeat(SECRET.length),
    );
    await page.screenshot({ path: `${SHOTS}/demo-editor-blur-snapshot-applied.png` });
    await context.close();
  });
});
