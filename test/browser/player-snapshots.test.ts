import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../../src/core/net/address-policy';
import { SafeFetch } from '../../src/core/net/safe-fetch';
import { createGenerator } from '../../src/generation';
import { launchBrowser } from '../helpers/browser';
import { waitForDemo } from '../helpers/demos';
import { startTestServer, type TestServer } from '../helpers/server';
import { type ForbiddenServer, startForbiddenServer, startTestSite, type TestSite } from '../helpers/site-server';
import { bearer } from '../helpers/test-app';
import { testDocumentPool } from '../helpers/documents';

// A demo generated without a browser (HTML capture) is a series of sanitised snapshots of the site, which
// the player shows in sandboxed frames. Embedded on a customer's site the viewer cookie is not sent (another
// site), so the player loads each snapshot into srcdoc, where it inherits the viewer page's CSP: the
// snapshot's stylesheets and images come from the captured site and must still load.

const SHOTS = 'test-results/screenshots';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };
/** The hotspot of a step found by its selector is the element's box padded by this many snapshot pixels. */
const PADDING = 6;

const browser: Browser | null = await launchBrowser();

interface GeneratedHotspot {
  step_number: number;
  selector: string;
  label: string;
}

/** What the test reads inside a snapshot frame (the captured page, not the player). */
interface SnapshotFacts {
  ready: boolean;
  title: string;
  /** The width the page is laid out at: the capture's, with no scrollbar taken off. */
  viewportWidth: number;
  scripts: number;
  markers: (string | null)[];
  bodyBackground: string;
  heroTitleSize: string | null;
  heroBorder: string | null;
  images: { src: string; complete: boolean; naturalWidth: number }[];
}

describe.skipIf(!browser)('HTML-snapshot demos in the player, embedded on another site (Chromium)', () => {
  let forbidden: ForbiddenServer;
  let site: TestSite;
  let server: TestServer;
  let key: string;
  let demoId: string;
  let stepCount: number;
  let hotspots: GeneratedHotspot[];
  const hosts: Server[] = [];
  const contexts: BrowserContext[] = [];
  const net = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));
  const documents = testDocumentPool();
  const generator = createGenerator({ net, documents, chromiumPath: null });

  const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const res = await server.app.inject({ method, url: `/v1${url}`, headers: bearer(key), ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };

  beforeAll(async () => {
    forbidden = await startForbiddenServer();
    site = await startTestSite(forbidden);
    // HTML capture (no browser for generation), with the guard letting the local test site through.
    server = await startTestServer({
      selfUrl: true,
      jobs: true,
      config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32' },
      generator: (options) => generator.generate(options),
    });
    key = await server.apiKey('all');
    mkdirSync(SHOTS, { recursive: true });

    const created = await api('POST', '/demos', { source_url: `${site.origin}/`, type: 'interactive', generate_with_ai: true });
    const demo = await waitForDemo(server, key, created.id, (d) => d.status !== 'generating');
    expect(demo.generation).toMatchObject({ status: 'succeeded' });
    const steps = demo.steps as { number: number; image_url: string | null; html_url: string | null }[];
    // Snapshots only: this file is about HTML steps.
    expect(steps.every((s) => s.image_url === null && typeof s.html_url === 'string')).toBe(true);
    demoId = created.id;
    stepCount = steps.length;
    hotspots = demo.hotspots as GeneratedHotspot[];
    expect(hotspots.map((h) => h.step_number)).toEqual(steps.map((s) => s.number));
    await api('PATCH', `/demos/${demoId}`, { status: 'published', configuration: { theme_color: '#0e9384' } });
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    for (const host of hosts) host.close();
    await server?.close();
    await generator.close();
    await net.close();
    await documents.close();
    await site?.close();
    await forbidden?.close();
  });

  /**
   * A customer's page on 127.0.0.2: another site than the server on 127.0.0.1, so the viewer cookie is not
   * sent to the frame (SameSite) and the player works with X-Viewer-Session. The embed code is the one
   * the Share dialog gives. Messages from the player are collected in `window.received`.
   */
  async function hostPage(embedUrl: string): Promise<string> {
    const host = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Host</title></head><body style="margin:0;font-family:system-ui"><h1 style="margin:16px">Our product</h1>
<div style="position:relative;width:100%;aspect-ratio:16/10;min-height:420px"><iframe src="${embedUrl}" title="Orbit tour" loading="lazy"
  allow="fullscreen; clipboard-write" style="position:absolute;inset:0;width:100%;height:100%;border:0;border-radius:12px"></iframe></div>
<script>window.received = []; addEventListener('message', (e) => { if (e.data && e.data.source === 'demoshare') window.received.push(e.data); });</script>
</body></html>`);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.2', resolve));
    hosts.push(host);
    return `http://127.0.0.2:${(host.address() as AddressInfo).port}/`;
  }

  /**
   * A page that records what Chromium logs from any frame: every Content-Security-Policy complaint, and
   * every script the sandbox stopped.
   */
  async function open(viewport: { width: number; height: number }) {
    const context = await browser!.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const cspViolations: string[] = [];
    const sandboxBlocked: string[] = [];
    page.on('console', (message) => {
      const text = message.text();
      if (/Content Security Policy/i.test(text)) cspViolations.push(text);
      if (/Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/.test(text)) sandboxBlocked.push(text);
    });
    return { page, cspViolations, sandboxBlocked };
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled' });

  /** The frame of the player (the embed iframe, or the page itself). */
  const playerFrame = (page: Page): Frame => page.frames().find((f) => /\/(embed|s)\//.test(f.url())) ?? page.mainFrame();

  /** The snapshot frame the player shows now (frames of earlier steps are detached). */
  function snapshotFrame(page: Page): Frame | undefined {
    const player = playerFrame(page);
    return page.frames().find((f) => f.parentFrame() === player && !f.isDetached());
  }

  async function readSnapshot(frame: Frame): Promise<SnapshotFacts> {
    return frame.evaluate(() => {
      const style = (selector: string, property: string) => {
        const el = document.querySelector(selector);
        return el ? getComputedStyle(el).getPropertyValue(property) : null;
      };
      const images = [...document.images].map((img) => ({ src: img.src, complete: img.complete, naturalWidth: img.naturalWidth }));
      return {
        ready: document.readyState === 'complete' && document.body !== null && document.body.children.length > 0 && images.every((i) => i.complete),
        title: document.title,
        viewportWidth: document.documentElement.clientWidth,
        scripts: document.querySelectorAll('script').length,
        // Set by the page's inline script, its app.js, and anything else that would run.
        markers: [
          document.documentElement.dataset.inlineScript ?? null,
          document.documentElement.dataset.js ?? null,
          typeof (window as unknown as { __orbit?: unknown }).__orbit === 'undefined' ? null : 'window.__orbit',
        ],
        bodyBackground: getComputedStyle(document.body).backgroundColor,
        heroTitleSize: style('.hero h1', 'font-size'),
        heroBorder: style('.hero', 'border-bottom-width'),
        images,
      };
    });
  }

  /** Waits until the current step's snapshot (a page titled `title`, any page if unsaid) has settled, and reads it. */
  async function settledSnapshot(page: Page, title?: string): Promise<{ frame: Frame; facts: SnapshotFacts }> {
    let last: unknown = 'no snapshot frame';
    for (let i = 0; i < 300; i++) {
      const frame = snapshotFrame(page);
      if (frame) {
        try {
          const facts = await readSnapshot(frame);
          if (facts.ready && (title === undefined ? facts.title !== '' : facts.title === title)) return { frame, facts };
          last = facts;
        } catch (error) {
          last = error; // the frame went away between finding and reading it
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the snapshot "${title}" never settled: ${JSON.stringify(last)}`);
  }

  /**
   * The hotspot button must sit on the element its selector names in the snapshot: it covers the element
   * (padded) and is not much larger, in page pixels, whatever the scale of the snapshot.
   */
  async function expectHotspotOnElement(page: Page, snapshot: Frame, hotspot: GeneratedHotspot) {
    const player = playerFrame(page);
    const spot = await player.locator('[data-hotspot-id]').first().boundingBox();
    // The frame is laid out at the capture's width and scaled down with a transform: its box on screen is
    // the scaled one, the element's box inside it is in the frame's own pixels.
    const snapshotFrameElement = player.locator('iframe.ds-snapshot');
    const offset = (await snapshotFrameElement.boundingBox())!;
    const layoutWidth = await snapshotFrameElement.evaluate((el: HTMLIFrameElement) => el.offsetWidth);
    const element = await snapshot.evaluate((selector) => {
      const r = document.querySelector(selector)?.getBoundingClientRect();
      return r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
    }, hotspot.selector);
    expect(spot, 'hotspot button').not.toBeNull();
    expect(element, `element ${hotspot.selector}`).not.toBeNull();
    const scale = offset.width / layoutWidth;
    const x = (v: number) => offset.x + v * scale;
    const y = (v: number) => offset.y + v * scale;
    // Padded, and clipped to the visible part of the snapshot as the player clips it.
    const visible = {
      left: Math.max(x(element!.x - PADDING), offset.x),
      top: Math.max(y(element!.y - PADDING), offset.y),
      right: Math.min(x(element!.x + element!.width + PADDING), offset.x + offset.width),
      bottom: Math.min(y(element!.y + element!.height + PADDING), offset.y + offset.height),
    };
    const where = `${hotspot.selector}: hotspot ${JSON.stringify(spot)}, element ${JSON.stringify(visible)}`;
    expect(visible.bottom - visible.top, `${where} (element not in view)`).toBeGreaterThan(4);
    const tolerance = 2;
    expect(Math.abs(spot!.x - visible.left), where).toBeLessThan(tolerance);
    expect(Math.abs(spot!.y - visible.top), where).toBeLessThan(tolerance);
    expect(Math.abs(spot!.x + spot!.width - visible.right), where).toBeLessThan(tolerance);
    expect(Math.abs(spot!.y + spot!.height - visible.bottom), where).toBeLessThan(tolerance);
  }

  /** The snapshot's own stylesheet, its @import from the site, and its image all arrived. */
  function expectSiteResources(facts: SnapshotFacts) {
    // style.css (inlined at capture): the site's background and its 52 px hero headline (browsers default to 32 px).
    expect(facts.bodyBackground).toBe('rgb(247, 248, 252)');
    if (facts.heroTitleSize !== null) expect(facts.heroTitleSize).toBe('52px');
    // theme.css, which style.css @imports: loaded by the viewer's browser from the site itself.
    if (facts.heroBorder !== null) expect(facts.heroBorder).toBe('6px');
    for (const image of facts.images) {
      expect(image.src.startsWith(`${site.origin}/`), image.src).toBe(true);
      expect(image.naturalWidth, image.src).toBeGreaterThan(0);
    }
  }

  async function identify(page: Page) {
    const player = page.frameLocator('iframe');
    await player.getByLabel('Your name').fill('Ada Lovelace');
    await player.getByLabel('Work e-mail').fill('ada@example.com');
    await player.getByRole('button', { name: 'View demo' }).click();
  }

  const received = async (page: Page) =>
    (await page.evaluate(() => (window as unknown as { received: Record<string, unknown>[] }).received)) as Record<string, unknown>[];

  it('renders each snapshot with the site’s stylesheets and images, runs none of its scripts, and plays to the end', async () => {
    // Identification makes the link gated: without the cookie the snapshot cannot load by its address.
    const share = await api('POST', `/demos/${demoId}/shares`, { name: 'Website embed', require_identification: true });
    const hostUrl = await hostPage(share.embed_url);
    const { page, cspViolations, sandboxBlocked } = await open(DESKTOP);
    const siteRequestsBefore = site.requests.length;
    await page.goto(hostUrl);
    await identify(page);
    const player = page.frameLocator('iframe');
    await player.locator('.ds-count', { hasText: `Step 1 of ${stepCount}` }).waitFor();

    const { frame, facts } = await settledSnapshot(page, 'Orbit — Product tours people finish');
    // Loaded through srcdoc: the frame inherits the viewer page's CSP, which is what is under test.
    expect(frame.url()).toBe('about:srcdoc');
    expectSiteResources(facts);
    expect(facts.heroTitleSize).toBe('52px');
    expect(facts.heroBorder).toBe('6px');
    expect(facts.images.map((i) => [new URL(i.src).pathname, i.naturalWidth])).toEqual([['/dashboard.svg', 960]]);
    expect(facts.viewportWidth).toBe(DESKTOP.width);
    // The viewer's browser fetched them from the site (the generator inlined style.css, nothing else).
    expect(site.requests.slice(siteRequestsBefore)).toEqual(expect.arrayContaining(['/theme.css', '/dashboard.svg']));
    expect(cspViolations).toEqual([]);

    // No script of the captured page runs: the sanitiser removed them, and the frame's sandbox stops any
    // that got through (a script element and a handler added now do not run, and Chromium says why).
    expect(facts.scripts).toBe(0);
    expect(facts.markers).toEqual([null, null, null]);
    const sandbox = await playerFrame(page).locator('iframe.ds-snapshot').evaluate((el: HTMLIFrameElement) => ({
      attribute: el.getAttribute('sandbox'),
      scripts: el.sandbox.contains('allow-scripts'),
    }));
    expect(sandbox.attribute).not.toBeNull();
    expect(sandbox.scripts).toBe(false);
    const injected = await frame.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = "document.documentElement.dataset.injected = 'ran'";
      document.head.append(script);
      const img = document.createElement('img');
      img.setAttribute('onerror', "document.documentElement.dataset.injected = 'ran'");
      img.src = 'data:image/png;base64,broken';
      document.body.append(img);
      return document.documentElement.dataset.injected ?? null;
    });
    expect(injected).toBeNull();
    // (No timers run in a frame without script: the error handler's chance is checked from out here.)
    await new Promise((r) => setTimeout(r, 300));
    expect(await frame.evaluate(() => document.documentElement.dataset.injected ?? null)).toBeNull();
    expect(sandboxBlocked.length).toBeGreaterThanOrEqual(1);
    expect(cspViolations).toEqual([]);

    await expectHotspotOnElement(page, frame, hotspots[0]!);
    await shot(page, 'player-snapshot-embed-step1-desktop');

    // Play to the end: hotspots, and the Next button on every third step.
    for (let n = 1; n <= stepCount; n++) {
      await player.locator('.ds-count', { hasText: `Step ${n} of ${stepCount}` }).waitFor();
      const hotspot = hotspots[n - 1]!;
      if (n > 1) {
        const current = await settledSnapshot(page);
        expectSiteResources(current.facts);
        expect(current.facts.markers).toEqual([null, null, null]);
        await expectHotspotOnElement(page, current.frame, hotspot);
        if (n === 4) await shot(page, 'player-snapshot-embed-step4-desktop');
      }
      if (n % 3 === 0 && n < stepCount) await player.getByRole('button', { name: 'Next', exact: true }).click();
      else await player.getByRole('button', { name: hotspot.label, exact: true }).click();
    }
    await player.getByRole('heading', { name: 'You have reached the end' }).waitFor();
    await page.waitForFunction(() => (window as unknown as { received: { type: string }[] }).received.some((m) => m.type === 'completed'));
    await shot(page, 'player-snapshot-embed-end-desktop');

    const messages = await received(page);
    expect(messages.filter((m) => m.type === 'ready')).toEqual([{ source: 'demoshare', type: 'ready', step_count: stepCount }]);
    expect(messages.filter((m) => m.type === 'step_reached').map((m) => m.step_number)).toEqual(
      Array.from({ length: stepCount }, (_, i) => i + 1),
    );
    expect(messages.filter((m) => m.type === 'hotspot_clicked').map((m) => m.step_number)).toEqual(
      Array.from({ length: stepCount }, (_, i) => i + 1).filter((n) => n % 3 !== 0 || n === stepCount),
    );
    expect(messages.filter((m) => m.type === 'completed')).toEqual([{ source: 'demoshare', type: 'completed', step_count: stepCount }]);
    expect(JSON.stringify(messages)).not.toMatch(/@|token/);
    expect(cspViolations).toEqual([]);

    // The view was recorded through X-Viewer-Session (no cookie in this frame).
    let completed = false;
    for (let i = 0; i < 100 && !completed; i++) {
      const views = (await api('GET', `/demos/${demoId}/views?viewer_email=ada%40example.com`)) as { completed: boolean }[];
      completed = views[0]?.completed === true;
      if (!completed) await new Promise((r) => setTimeout(r, 100));
    }
    expect(completed).toBe(true);
  });

  it('fits a phone: the snapshot is zoomed with its stage, the hotspot stays on its element', async () => {
    const share = await api('POST', `/demos/${demoId}/shares`, { name: 'Phone embed', require_identification: true });
    const hostUrl = await hostPage(share.embed_url);
    const { page, cspViolations } = await open(PHONE);
    await page.goto(hostUrl);
    await identify(page);
    const player = page.frameLocator('iframe');
    await player.locator('.ds-count', { hasText: `Step 1 of ${stepCount}` }).waitFor();
    const first = await settledSnapshot(page, 'Orbit — Product tours people finish');
    expectSiteResources(first.facts);
    await expectHotspotOnElement(page, first.frame, hotspots[0]!);
    await shot(page, 'player-snapshot-embed-step1-phone');

    // Nothing sticks out sideways, on the host page or in the player.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await playerFrame(page).evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const stage = (await player.locator('.ds-stage').boundingBox())!;
    const snapshot = (await player.locator('iframe.ds-snapshot').boundingBox())!;
    expect(Math.abs(snapshot.width - stage.width)).toBeLessThan(1);
    expect(Math.abs(snapshot.height - stage.height)).toBeLessThan(1);
    const tip = (await player.locator('.ds-tip').boundingBox())!;
    expect(tip.x).toBeGreaterThanOrEqual(0);
    expect(tip.x + tip.width).toBeLessThanOrEqual(PHONE.width);

    for (let n = 2; n <= 4; n++) {
      await player.getByRole('button', { name: hotspots[n - 2]!.label, exact: true }).click();
      await player.locator('.ds-count', { hasText: `Step ${n} of ${stepCount}` }).waitFor();
    }
    const features = await settledSnapshot(page, 'Orbit — Product tours people finish');
    expectSiteResources(features.facts);
    await expectHotspotOnElement(page, features.frame, hotspots[3]!);
    await shot(page, 'player-snapshot-embed-step4-phone');
    expect(cspViolations).toEqual([]);
  });

  it('shows the same snapshots on the link’s own page, where the viewer cookie is sent', async () => {
    const share = await api('POST', `/demos/${demoId}/shares`, { name: 'Direct link' });
    const { page, cspViolations } = await open(DESKTOP);
    await page.goto(share.url);
    await page.locator('.ds-count', { hasText: `Step 1 of ${stepCount}` }).waitFor();
    const { frame, facts } = await settledSnapshot(page, 'Orbit — Product tours people finish');
    expectSiteResources(facts);
    expect(facts.heroBorder).toBe('6px');
    expect(facts.markers).toEqual([null, null, null]);
    await expectHotspotOnElement(page, frame, hotspots[0]!);
    await shot(page, 'player-snapshot-page-step1-desktop');
    expect(cspViolations).toEqual([]);
  });
});
