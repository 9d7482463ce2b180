import { mkdirSync } from 'node:fs';
import type { Browser, ElementHandle, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../../src/core/net/address-policy';
import { SafeFetch } from '../../src/core/net/safe-fetch';
import { createGenerator } from '../../src/generation';
import { launchBrowser, sessionCookies } from '../helpers/browser';
import { waitForDemo } from '../helpers/demos';
import { startTestServer, type TestServer } from '../helpers/server';
import { type ForbiddenServer, startForbiddenServer, startTestSite, type TestSite } from '../helpers/site-server';
import { bearer, type TestSession } from '../helpers/test-app';
import { testDocumentPool } from '../helpers/documents';

// A demo generated in HTML capture mode (no browser on the server) has snapshot steps: the editor shows
// each snapshot in a frame sandboxed without scripts, scaled to the canvas, with the hotspots on top, where
// they can still be dragged; a hotspot moved by hand loses its selector so the player keeps it there.

const SHOTS = 'test-results/screenshots';
const HEADLINE = 'Turn your product into a tour people finish';
const browser: Browser | null = await launchBrowser();

interface ApiHotspot {
  id: string;
  step_number: number;
  x: number;
  y: number;
  width: number;
  height: number;
  selector: string | null;
}

describe.skipIf(!browser)('HTML-snapshot steps in the demo editor (Chromium)', () => {
  let forbidden: ForbiddenServer;
  let site: TestSite;
  let server: TestServer;
  let session: TestSession;
  let key: string;
  let demoId: string;
  let stepCount: number;
  const net = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));
  const documents = testDocumentPool();
  const generator = createGenerator({ net, documents, chromiumPath: null });

  beforeAll(async () => {
    forbidden = await startForbiddenServer();
    site = await startTestSite(forbidden);
    server = await startTestServer({
      jobs: true,
      config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32' },
      generator: (options) => generator.generate(options),
    });
    session = await server.signUp();
    key = await server.apiKey('all', session);
    mkdirSync(SHOTS, { recursive: true });
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/demos',
      headers: bearer(key),
      payload: { source_url: `${site.origin}/`, type: 'interactive', generate_with_ai: true },
    });
    expect(res.statusCode).toBe(201);
    demoId = res.json().data.id;
    const demo = await waitForDemo(server, key, demoId, (d) => d.status !== 'generating');
    expect(demo.generation).toMatchObject({ status: 'succeeded', capture_mode: 'html' });
    const steps = demo.steps as { image_url: string | null; html_url: string | null }[];
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.every((s) => s.image_url === null && typeof s.html_url === 'string')).toBe(true);
    expect((demo.hotspots as ApiHotspot[])[0]?.selector).toBeTruthy();
    stepCount = steps.length;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await generator.close();
    await net.close();
    await documents.close();
    await site?.close();
    await forbidden?.close();
  });

  const readDemo = (page: Page) =>
    page.evaluate(async (id) => (await (await fetch(`/v1/demos/${id}`)).json()).data, demoId) as Promise<{ hotspots: ApiHotspot[] }>;

  async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
    for (let i = 0; i < 150; i++) {
      const value = await read();
      if (ok(value)) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('condition never held');
  }

  /** The document inside a snapshot frame, once the frame shows it. */
  async function snapshotDocument(frame: ElementHandle): Promise<Frame> {
    await frame.waitForElementState('visible');
    const content = await frame.contentFrame();
    if (!content) throw new Error('no frame document');
    await content.waitForFunction((text) => document.body?.textContent?.includes(text), HEADLINE, { timeout: 20_000 });
    return content;
  }

  it('shows the snapshots in the canvas, thumbnails and preview, without scripts, and moves a hotspot', async () => {
    const context = await browser!.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addCookies(sessionCookies(session, server.url));
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const cspViolations: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) cspViolations.push(msg.text());
    });

    await page.goto(`${server.url}/demos/${demoId}`);
    await page.getByRole('textbox', { name: 'Demo title' }).waitFor();

    // The canvas: a frame sandboxed with allow-same-origin only, showing the captured page.
    const canvasFrame = await page.waitForSelector('.editor-stage .canvas iframe.snapshot-frame', { state: 'attached' });
    expect(await canvasFrame.getAttribute('sandbox')).toBe('allow-same-origin');
    expect(await canvasFrame.evaluate((el) => getComputedStyle(el).pointerEvents)).toBe('none');
    const doc = await snapshotDocument(canvasFrame);
    expect(await doc.locator('h1').first().textContent()).toBe(HEADLINE);
    // None of the page's scripts ran (sandbox without allow-scripts, and the snapshot's own CSP).
    expect(await doc.evaluate(() => document.documentElement.dataset.inlineScript ?? null)).toBeNull();
    expect(await doc.evaluate(() => document.querySelectorAll('script').length)).toBe(0);
    // The site's image (loaded from the site by the browser, allowed by the web app's CSP) is there.
    await doc.waitForFunction(() => [...document.images].some((img) => img.complete && img.naturalWidth > 0));
    // Scaled to the canvas like an image: the 1280 px page fills the canvas width.
    const canvas = (await page.locator('.editor-stage .canvas').boundingBox())!;
    const shown = (await canvasFrame.boundingBox())!;
    expect(shown.width).toBeCloseTo(canvas.width - 2, -1);

    // The first step's hotspot sits on its element, as the player puts it (not at the placeholder box).
    const before = (await readDemo(page)).hotspots.find((h) => h.step_number === 1)!;
    expect(before.selector).toBeTruthy();
    const element = await doc.evaluate((selector) => {
      const r = document.querySelector(selector)!.getBoundingClientRect();
      return { x: (r.left - 6) / 1280, y: (r.top - 6) / 800, width: (r.width + 12) / 1280 };
    }, before.selector!);
    const hotspot = page.locator(`[data-hotspot-id="${before.id}"]`);
    await until(
      async () => (await hotspot.boundingBox())!,
      (b) => Math.abs((b.x - canvas.x) / canvas.width - element.x) < 0.01,
    );
    const box = (await hotspot.boundingBox())!;
    expect((box.y - canvas.y) / canvas.height).toBeCloseTo(element.y, 1);
    expect(box.width / canvas.width).toBeCloseTo(element.width, 1);

    // Thumbnails: every step shows its snapshot, scaled down, also without scripts.
    const thumbs = page.locator('.step-list iframe.snapshot-frame');
    await until(
      () => thumbs.count(),
      (n) => n === stepCount,
    );
    for (const frame of await thumbs.elementHandles()) expect(await frame.getAttribute('sandbox')).toBe('allow-same-origin');
    await snapshotDocument((await thumbs.elementHandles())[0]!);
    await page.waitForFunction(() => document.querySelectorAll('.step-list .snapshot-placeholder').length === 0);
    await page.screenshot({ path: `${SHOTS}/demo-editor-snapshot.png`, fullPage: true });

    // Drag the hotspot right and down: saved with the new box, and its selector cleared so the player
    // keeps it where it was put.
    const fromX = box.x + box.width / 2;
    const fromY = box.y + box.height / 2;
    await page.mouse.move(fromX, fromY);
    await page.mouse.down();
    await page.mouse.move(fromX + canvas.width * 0.05, fromY + canvas.height * 0.3, { steps: 8 });
    await page.mouse.up();
    const moved = await until(
      () => readDemo(page),
      (d) => d.hotspots.find((h) => h.id === before.id)!.selector === null,
    );
    const after = moved.hotspots.find((h) => h.id === before.id)!;
    // Moved from where it was shown (on the element), not from the stored placeholder box.
    expect(after.x).toBeCloseTo(element.x + 0.05, 1);
    expect(after.y).toBeCloseTo(element.y + 0.3, 1);
    expect(after.width).toBeCloseTo(element.width, 1);
    expect(Math.abs(after.x - before.x)).toBeGreaterThan(0.05);
    // The canvas shows it where it was dropped, not back on the element.
    await until(
      async () => (await hotspot.boundingBox())!,
      (b) => Math.abs((b.x - canvas.x) / canvas.width - after.x) < 0.01,
    );

    // The preview plays the snapshots too, with the next step's hotspot on its element.
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('dialog', { name: /Preview/ });
    await preview.getByText(`1 / ${stepCount}`).waitFor();
    const previewFrame = await preview.locator('iframe.snapshot-frame').elementHandle();
    expect(await previewFrame!.getAttribute('sandbox')).toBe('allow-same-origin');
    await snapshotDocument(previewFrame!);
    await preview.getByRole('button', { name: 'Next' }).click();
    await preview.getByText(`2 / ${stepCount}`).waitFor();
    await snapshotDocument((await preview.locator('iframe.snapshot-frame').elementHandle())!);
    await page.screenshot({ path: `${SHOTS}/demo-editor-snapshot-preview.png` });
    await page.keyboard.press('Escape');

    // A phone: the canvas and its frame scale down with the page.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const small = await page.waitForSelector('.editor-stage .canvas iframe.snapshot-frame');
    await snapshotDocument(small);
    const smallCanvas = (await page.locator('.editor-stage .canvas').boundingBox())!;
    expect(smallCanvas.width).toBeLessThanOrEqual(390);
    expect((await small.boundingBox())!.width).toBeCloseTo(smallCanvas.width - 2, -1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/demo-editor-snapshot-390.png`, fullPage: true });

    expect(cspViolations).toEqual([]);
    await context.close();
  }, 180_000);
});
