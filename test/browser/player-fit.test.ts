import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationResult } from '../../src/generation/generation.types';
import { launchBrowser } from '../helpers/browser';
import { waitForDemo } from '../helpers/demos';
import { makeMockupPng } from '../helpers/images';
import { startTestServer, type TestServer } from '../helpers/server';

// Everything a step shows is seen, at 390 (phone), 768 (tablet) and 1280 px (desktop), and at phone width
// inside an embed frame: the highlighted element whole, inside the viewport and the picture's visible
// frame, clear of the text sheet; and the step's whole text, on screen or, when it is longer than its box,
// with a visible cue that scrolls to its end. Hard cases: long titles, texts of 600 and 1,400 characters,
// elements on the page's edges (a logo top left, a button bottom right), a full-width navigation bar, a
// panel covering most of the page; screenshot steps and HTML-snapshot steps.

const SHOTS = 'test-results/screenshots';
const PHONE = { width: 390, height: 844 };
const TABLET = { width: 768, height: 1024 };
const DESKTOP = { width: 1280, height: 800 };

type Box = { x: number; y: number; width: number; height: number };

const words = (n: number) =>
  Array.from({ length: n }, (_, i) => ['Invoices', 'reconcile', 'themselves', 'when', 'the', 'bank', 'feed', 'matches', 'each', 'payment'][i % 10]).join(' ');
/** About 650 characters, then about 1,400 (more than a third of a phone's height at 13 px). */
const LONG = `${words(90)}. The end of the long text.`;
const VERY_LONG = `${words(200)}. The end of the very long text.`;
const LONG_TITLE = 'Reconcile every payment of the quarter against the bank feed without leaving the ledger view';

// Screenshot steps (1280×800): an element on each edge and corner case.
const SHOT_STEPS = [
  { title: LONG_TITLE, text: LONG, end: 'The end of the long text.', spot: { x: 0.004, y: 0.008, width: 0.12, height: 0.065, label: 'The logo' } },
  { title: 'Buy', text: 'One short line.', end: 'One short line.', spot: { x: 0.85, y: 0.915, width: 0.145, height: 0.08, label: 'Buy now' } },
  { title: 'The navigation', text: 'Every section of the app, one click away.', end: 'one click away.', spot: { x: 0, y: 0, width: 1, height: 0.09, label: 'The navigation bar' } },
  { title: 'The report', text: VERY_LONG, end: 'The end of the very long text.', spot: { x: 0.05, y: 0.12, width: 0.9, height: 0.8, label: 'The whole report' } },
];

/** A snapshot page: a full-width nav with the logo in it, and a button in the bottom-right corner. */
const SNAPSHOT_HTML = `<!doctype html><html><head><style>body{margin:0;font:16px system-ui;background:#f8fafc;height:800px}
nav{position:absolute;left:0;top:0;width:1280px;height:64px;background:#0e9384}
#logo{position:absolute;left:10px;top:12px;width:120px;height:40px;background:#fff;border-radius:6px}
#buy{position:absolute;left:1100px;top:738px;width:170px;height:52px;border:0;border-radius:8px;background:#4f46e5;color:#fff}</style></head>
<body><nav id="nav"><div id="logo"></div></nav><button id="buy">Buy</button></body></html>`;

const SNAPSHOT_STEPS = [
  { title: LONG_TITLE, text: LONG, end: 'The end of the long text.', selector: '#logo', label: 'The logo' },
  { title: 'The navigation', text: 'Every section, one click away.', end: 'one click away.', selector: '#nav', label: 'The navigation bar' },
  { title: 'Buy', text: 'One short line.', end: 'One short line.', selector: '#buy', label: 'Buy now' },
];

function snapshotResult(): GenerationResult {
  return {
    captureMode: 'html',
    writer: 'builtin',
    title: 'Orbit',
    warnings: [],
    pages: [],
    steps: SNAPSHOT_STEPS.map((s, i) => ({
      title: s.title,
      description: s.text,
      pageUrl: `https://orbit.example/#${i}`,
      html: SNAPSHOT_HTML,
      width: 1280,
      height: 800,
      // A placeholder box away from the element: the player moves the hotspot onto it.
      hotspots: [{ x: 0.5, y: 0.5, width: 0.1, height: 0.1, selector: s.selector, label: s.label, tooltip: `About ${s.label.toLowerCase()}`, action: { type: 'next' as const } }],
    })),
  };
}

const within = (inner: Box, outer: Box, slack = 1) =>
  inner.x >= outer.x - slack &&
  inner.y >= outer.y - slack &&
  inner.x + inner.width <= outer.x + outer.width + slack &&
  inner.y + inner.height <= outer.y + outer.height + slack;
const intersects = (a: Box, b: Box) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;

const browser: Browser | null = await launchBrowser();

describe.skipIf(!browser)('the player shows the whole element and the whole text at 390, 768 and 1280 px (Chromium)', () => {
  let server: TestServer;
  let key: string;
  let shots: { path: string; embed: string };
  let snapshots: string;
  const contexts: BrowserContext[] = [];
  let host: Server | undefined;

  const api = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body instanceof Buffer ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : body instanceof Buffer ? new Uint8Array(body) : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? JSON.parse(text).data : undefined;
  };

  beforeAll(async () => {
    server = await startTestServer({ selfUrl: true, jobs: true, generator: async () => snapshotResult() });
    mkdirSync(SHOTS, { recursive: true });
    key = await server.apiKey('all');

    const demo = await api('POST', '/demos', {
      title: 'Month-end close for finance teams, from the bank feed to the board pack',
      type: 'interactive',
      configuration: { theme_color: '#0e9384', call_to_action: { label: 'Start a free trial', url: 'https://example.com/trial' } },
    });
    for (const [i, s] of SHOT_STEPS.entries()) {
      const step = await api('POST', `/demos/${demo.id}/steps`, makeMockupPng(1280, 800, [14 + i * 50, 147, 132]), { 'content-type': 'image/png' });
      await api('PATCH', `/demos/${demo.id}/steps/${step.id}`, { title: s.title, description: s.text });
      await api('POST', `/demos/${demo.id}/steps/${step.id}/hotspots`, { ...s.spot, tooltip: `About ${s.spot.label.toLowerCase()}`, action: { type: 'next' } });
    }
    await api('PATCH', `/demos/${demo.id}`, { status: 'published' });
    const share = await api('POST', `/demos/${demo.id}/shares`, {});
    shots = { path: new URL(share.url).pathname, embed: share.embed_url };

    const created = await api('POST', '/demos', { source_url: 'https://orbit.example/', type: 'interactive', generate_with_ai: true });
    await waitForDemo(server, key, created.id, (d) => d.status !== 'generating');
    await api('PATCH', `/demos/${created.id}`, { status: 'published' });
    snapshots = new URL((await api('POST', `/demos/${created.id}/shares`, {})).url).pathname;
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    host?.close();
    await server?.close();
  });

  async function open(viewport: { width: number; height: number }, url: string): Promise<Page> {
    const touch = viewport.width < 1024;
    const context = await browser!.newContext({ viewport, hasTouch: touch, isMobile: viewport === PHONE, deviceScaleFactor: 1 });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(url);
    return page;
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/player-fit-${name}.png`, animations: 'disabled' });

  /** What the player's layout shows, measured in its own document (the page, or the embed frame). */
  const measure = (player: Page | Frame) =>
    player.evaluate(() => {
      const rect = (el: Element) => {
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      };
      const q = (selector: string) => document.querySelector(selector) as HTMLElement;
      const text = q('.ds-step-text');
      const more = document.querySelector('.ds-more') as HTMLElement | null;
      const tip = q('.ds-tip');
      return {
        viewport: { x: 0, y: 0, width: innerWidth, height: innerHeight },
        spot: rect(q('.ds-hotspot')),
        frame: rect(q('.ds-fit')),
        bar: rect(q('.ds-bar')),
        stage: rect(q('.ds-stage')),
        title: rect(q('.ds-step-title')),
        tip: tip.hidden || getComputedStyle(tip).visibility === 'hidden' ? null : { box: rect(tip), placement: tip.dataset.placement },
        text: { box: rect(text), scrollHeight: text.scrollHeight, clientHeight: text.clientHeight, fontSize: Number.parseFloat(getComputedStyle(text).fontSize) },
        more: !more || more.hidden ? null : rect(more),
        pageScrolls: document.documentElement.scrollWidth > innerWidth || document.documentElement.scrollHeight > innerHeight,
      };
    });

  /**
   * The element whole in the viewport and in the picture's visible frame, under neither the text sheet nor
   * the tooltip; the title and text on screen, the text whole or with a visible "More" that reaches its end.
   */
  async function expectAllSeen(player: Page | Frame, end: string, label: string, whole: boolean) {
    const m = await measure(player);
    const where = `${label}: ${JSON.stringify(m)}`;
    expect(within(m.spot, m.viewport), `${where}: the element in the viewport`).toBe(true);
    expect(within(m.spot, m.frame), `${where}: the element in the visible frame`).toBe(true);
    expect(intersects(m.spot, m.bar), `${where}: the element clear of the text sheet`).toBe(false);
    if (m.tip) expect(intersects(m.spot, m.tip.box), `${where}: the element clear of the tooltip`).toBe(false);
    expect(m.pageScrolls, `${where}: the page itself never scrolls`).toBe(false);
    expect(within(m.bar, m.viewport), `${where}: the text sheet on screen`).toBe(true);
    expect(within(m.title, m.viewport), `${where}: the whole title on screen`).toBe(true);
    expect(within(m.text.box, m.viewport), `${where}: the text's box on screen`).toBe(true);
    expect(m.text.fontSize).toBeGreaterThanOrEqual(13);
    // The picture keeps a useful share of the screen whatever the text's length.
    expect(m.frame.height / m.viewport.height, where).toBeGreaterThan(0.4);

    const textEl = player.locator('.ds-step-text');
    if (whole) expect(m.text.scrollHeight, `${where}: the whole text shows, no scrolling`).toBeLessThanOrEqual(m.text.clientHeight + 1);
    if (m.text.scrollHeight <= m.text.clientHeight + 1) {
      expect(m.more, `${where}: no cue when everything shows`).toBeNull();
      return;
    }
    // Longer than its box: the cue shows, on the text, and takes the viewer to its end.
    expect(m.more, `${where}: a visible cue that there is more`).not.toBeNull();
    expect(within(m.more!, m.text.box, 2)).toBe(true);
    expect(await textEl.evaluate((el) => el.tabIndex)).toBe(0);
    // The chip scrolls the text on (a tap on it, as a viewer would) …
    await player.locator('.ds-more').click();
    await player.waitForFunction(() => (document.querySelector('.ds-step-text') as HTMLElement).scrollTop > 0);
    // … and, at the end (reached here at once, as a flick would), goes with the fade.
    await textEl.evaluate((el) => el.scrollTo({ top: el.scrollHeight, behavior: 'instant' }));
    await player.locator('.ds-more').waitFor({ state: 'hidden' });
    expect(await textEl.evaluate((el) => el.classList.contains('ds-more-below'))).toBe(false);
    expect(await player.locator('.ds-more').isVisible(), `${label}: the cue goes once the end is reached`).toBe(false);
    const lastLine = await textEl.evaluate((el, phrase) => {
      const range = document.createRange();
      const node = el.firstChild as Text;
      const at = node.data.lastIndexOf(phrase);
      range.setStart(node, at);
      range.setEnd(node, at + phrase.length);
      const r = range.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      return { text: { x: r.x, y: r.y, width: r.width, height: r.height }, box: { x: box.x, y: box.y, width: box.width, height: box.height } };
    }, end);
    expect(within(lastLine.text, lastLine.box, 1), `${label}: the text's last words scrolled into its box`).toBe(true);
    await textEl.evaluate((el) => el.scrollTo({ top: 0, behavior: 'instant' }));
  }

  const stepShown = (player: Page | Frame, n: number, of: number) => player.locator('.ds-count', { hasText: `Step ${n} of ${of}` }).waitFor();

  /** Waits until the step's hotspot sits on its element (snapshot steps), its tooltip shown. */
  async function settled(player: Page | Frame, label: string, snapshot: boolean) {
    await player.getByRole('button', { name: label, exact: true }).waitFor();
    if (snapshot) {
      await player.waitForFunction(() => {
        const el = document.querySelector('.ds-hotspot') as HTMLElement | null;
        return !!el && el.style.getPropertyValue('--ds-x') !== '0.5';
      });
    }
    await player.waitForFunction(() => performance.getEntriesByName('demoshare:first-step').length > 0);
    await player.locator('.ds-tip').waitFor();
  }

  /** Every step in turn; `whole`: the long text (650 characters) must show whole, without scrolling. */
  async function walk(
    player: Page | Frame,
    page: Page,
    steps: ReadonlyArray<{ end: string; label: string }>,
    name: string,
    snapshot: boolean,
    whole = true,
  ) {
    for (const [i, s] of steps.entries()) {
      await stepShown(player, i + 1, steps.length);
      await settled(player, s.label, snapshot);
      await expectAllSeen(player, s.end, `${name} step ${i + 1}`, whole && s.end !== SHOT_STEPS[3]!.end);
      await shot(page, `${name}-step${i + 1}`);
      if (i < steps.length - 1) await player.getByRole('button', { name: 'Next' }).click();
    }
  }

  const shotSteps = SHOT_STEPS.map((s) => ({ end: s.end, label: s.spot.label }));
  for (const [name, viewport] of [
    ['phone', PHONE],
    ['tablet', TABLET],
    ['desktop', DESKTOP],
  ] as const) {
    it(`screenshot steps at ${viewport.width}×${viewport.height}`, async () => {
      const page = await open(viewport, server.url + shots.path);
      await walk(page, page, shotSteps, `shots-${name}`, false);
      if (viewport === PHONE) {
        // A small element is still shown at a readable scale (the fit-to-element zoom is for large ones).
        await page.getByRole('button', { name: 'Back' }).click();
        await page.getByRole('button', { name: 'Back' }).click();
        await stepShown(page, 2, SHOT_STEPS.length);
        expect((await measure(page)).stage.width / 1280).toBeGreaterThanOrEqual(0.65);
      }
      if (viewport === DESKTOP) {
        // Desktop keeps its layout: the whole picture fits its frame, nothing scrolls.
        expect(await page.locator('.ds-fit').evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight)).toBe(true);
      }
    });

    // Desktop snapshots keep their layout (player-snapshots.test.ts); here, the sizes that changed.
    it.skipIf(viewport === DESKTOP)(`HTML-snapshot steps at ${viewport.width}×${viewport.height}`, async () => {
      const page = await open(viewport, server.url + snapshots);
      await walk(page, page, SNAPSHOT_STEPS, `snapshots-${name}`, true);
    });
  }

  it('an embed frame at phone width, on a host page', async () => {
    // A customer's page on another site than the server (127.0.0.2), with the embed code in a phone-wide column.
    host = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host</title></head>
<body style="margin:0;font-family:system-ui"><h1 style="margin:16px;font-size:20px">Our product</h1>
<iframe src="${shots.embed}" title="Tour" style="display:block;width:100%;height:640px;border:0"></iframe></body></html>`);
    });
    await new Promise<void>((resolve) => host!.listen(0, '127.0.0.2', resolve));
    const context = await browser!.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, deviceScaleFactor: 1 });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`http://127.0.0.2:${(host.address() as AddressInfo).port}/`);
    const player = await (await page.waitForSelector('iframe')).contentFrame();
    expect(player).not.toBeNull();
    // 640 px high: the 650 characters may scroll there (with the cue).
    await walk(player!, page, shotSteps, 'embed-phone', false, false);
  });
});
