import { type Browser, chromium, type Page } from 'playwright-core';
import type { SafeFetch } from '../core/net/safe-fetch';
import { guardContext, type GuardStats } from './browser-guard';
import { CaptureError } from './capture-error';
import type { CapturedElement, CapturedFrame, CapturedPage } from './generation.types';
import { type Capturer, type CaptureSession, CapturerUnavailableError, type GenerationLog } from './generator';
import type { ElementLayout } from './html-elements';
import { STAMP_SCRIPT, type StampResult } from './page-probe';
import { buildSnapshot } from './snapshot';

export const VIEWPORT = { width: 1280, height: 800 };

/** How every Chromium of this project starts (capture, browser tests, benchmarks): headless and quiet. */
export const CHROMIUM_BASE_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

const LAUNCH_ARGS = [
  ...CHROMIUM_BASE_ARGS,
  '--disable-dev-shm-usage',
  // The browser itself must reach nothing: requests are answered by the guard through interception,
  // while the connections Chromium opens on its own (preconnects for navigations, frames, popups, DNS
  // prefetch) find no host name resolving and a proxy that cannot be reached.
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--proxy-server=http://255.255.255.255:9',
  '--proxy-bypass-list=<-loopback>',
  '--dns-prefetch-disable',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];
const MAX_FRAMES = 4;
const MAX_REQUESTS_PER_JOB = 400;
const MAX_BYTES_PER_JOB = 60 * 1024 * 1024;
const SETTLE_MS = 2_500;
const RELAUNCH_AFTER_FAILURE_MS = 60_000;

/**
 * Motion frozen before anything is measured: entrance animations and transitions jump to their end (where
 * a visitor sees the element once they settle), looping ones stop at their start, none start afterwards,
 * and scrolling is instant, so boxes, visibility and every screenshot show the page at rest. The style
 * stays in the snapshot, which the player then shows at rest too.
 */
const FREEZE_MOTION_SCRIPT = `(() => {
  const style = document.createElement('style');
  style.setAttribute('data-demoshare', 'still');
  style.textContent = '*, *::before, *::after { transition: none !important; animation-play-state: paused !important; caret-color: transparent !important; } html, body { scroll-behavior: auto !important; }';
  for (const animation of document.getAnimations()) {
    try { animation.finish(); } catch { animation.currentTime = 0; animation.pause(); }
  }
  document.head.appendChild(style);
})()`;

/**
 * Captures pages in headless Chromium through playwright-core: a 1280×800 viewport, a screenshot at the
 * top and further down where the tour's elements are, the boxes of visible elements, and a sanitised
 * snapshot of the rendered DOM. One browser serves every job (a fresh context per job), started on
 * first use; every request of a context goes through the SSRF guard (browser-guard.ts).
 */
export function createChromiumCapturer(deps: { net: SafeFetch; chromiumPath: string; log?: GenerationLog }): Capturer {
  let browser: Promise<Browser> | null = null;
  let failedAt = 0;
  let failure = '';

  async function getBrowser(): Promise<Browser> {
    if (!browser && Date.now() - failedAt < RELAUNCH_AFTER_FAILURE_MS) throw new CapturerUnavailableError(failure);
    browser ??= chromium.launch({ executablePath: deps.chromiumPath, args: LAUNCH_ARGS, timeout: 30_000 }).then(
      (launched) => {
        launched.on('disconnected', () => {
          browser = null;
        });
        deps.log?.info({ path: deps.chromiumPath, version: launched.version() }, 'generation: browser started');
        return launched;
      },
      (error: Error) => {
        browser = null;
        failedAt = Date.now();
        failure = error.message.split('\n')[0] ?? 'launch failed';
        throw new CapturerUnavailableError(failure);
      },
    );
    return browser;
  }

  /** One context and one tab per generation: its pages share cookies, budgets and the guard. */
  async function openSession(deadline: number): Promise<CaptureSession> {
    const context = await (await getBrowser()).newContext({
      viewport: VIEWPORT,
      deviceScaleFactor: 1,
      serviceWorkers: 'block',
      acceptDownloads: false,
      javaScriptEnabled: true,
    });
    try {
      const navigations = new Set<string>();
      const guard = await guardContext(context, deps.net, {
        maxRequests: MAX_REQUESTS_PER_JOB,
        maxBytes: MAX_BYTES_PER_JOB,
        deadline,
        mayNavigate: (target) => navigations.has(target),
      });
      const page = await context.newPage();
      // Popups are not part of the tour and would only spend the budget.
      context.on('page', (other) => {
        if (other !== page) other.close().catch(() => {});
      });
      return {
        capture: async (url) => {
          navigations.clear();
          navigations.add(url);
          await open(page, url, deadline, guard, navigations);
          return readPage(page, deadline, guard);
        },
        close: () => context.close().catch(() => {}),
      };
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
  }

  async function readPage(page: Page, deadline: number, guard: GuardStats): Promise<CapturedPage> {
    if (!/^https?:/.test(page.url())) throw new CaptureError('the page replaced itself with an error page');
    await page.evaluate(FREEZE_MOTION_SCRIPT);
    const stamp = (await page.evaluate(STAMP_SCRIPT)) as StampResult;
    const layout = new Map<number, ElementLayout>(
      stamp.items.map(([n, x, y, width, height, visible]) => [n, { box: { x, y, width, height }, visible: visible === 1 }]),
    );
    const snapshot = await buildSnapshot(await page.content(), page.url(), { net: deps.net, deadline, layout, stylesheets: guard.stylesheets });
    const screenshot = await page.screenshot({ type: 'png' });
    const frames: CapturedFrame[] = [];
    for (const top of frameTops(snapshot.elements, stamp.height)) {
      const actual = (await page.evaluate(`window.scrollTo(0, ${top}); window.scrollY`)) as number;
      if (actual <= 0 || frames.some((f) => f.top === actual)) continue;
      frames.push({ top: actual, screenshot: await page.screenshot({ type: 'png' }) });
    }
    return {
      url: page.url(),
      title: snapshot.title || (await page.title()),
      description: snapshot.description,
      screenshot,
      frames,
      width: VIEWPORT.width,
      height: VIEWPORT.height,
      html: snapshot.html,
      elements: snapshot.elements,
      links: snapshot.links,
    };
  }

  return {
    mode: 'chromium',
    open: openSession,
    close: async () => {
      const open = browser;
      browser = null;
      if (open) await (await open.catch(() => null))?.close().catch(() => {});
    },
  };
}

async function open(page: Page, url: string, deadline: number, guard: GuardStats, navigations: Set<string>): Promise<void> {
  const remaining = () => Math.max(1, deadline - Date.now());
  let response: Awaited<ReturnType<Page['goto']>>;
  try {
    response = await page.goto(url, { waitUntil: 'load', timeout: remaining() });
    // The guard follows redirects itself, so the browser still shows the first address: go where they led.
    const final = guard.redirects.get(url);
    if (final) {
      navigations.add(final);
      response = await page.goto(final, { waitUntil: 'load', timeout: remaining() });
    }
  } catch (error) {
    const refused = guard.blocked.find((b) => b.url === url || b.url === guard.redirects.get(url));
    throw new CaptureError(refused ? refused.reason : `${url} did not load (${(error as Error).message.split('\n')[0]})`);
  }
  if (!/^https?:/.test(page.url())) throw new CaptureError(`${url} did not load`);
  if (response && response.status() >= 400) throw new CaptureError(`${url} answered HTTP ${response.status()}`);
  const contentType = response?.headers()['content-type'] ?? '';
  if (contentType && !/html/i.test(contentType)) throw new CaptureError(`${url} is not a web page (${contentType.split(';')[0]})`);
  // Scripts that render after load (single-page apps) get a moment; a busy page does not hold the job.
  await page.waitForLoadState('networkidle', { timeout: Math.min(SETTLE_MS, remaining()) }).catch(() => {});
}

/** Where to take screenshots further down: the fewest viewport-high windows that show the tour's elements. */
function frameTops(elements: CapturedElement[], pageHeight: number): number[] {
  const tops: number[] = [];
  const covered = (y: number, h: number) => y + h <= VIEWPORT.height || tops.some((t) => y >= t && y + h <= t + VIEWPORT.height);
  const wanted = elements
    .filter((e) => e.box && (e.kind !== 'link' && e.kind !== 'input'))
    .map((e) => e.box!)
    .sort((a, b) => a.y - b.y);
  for (const box of wanted) {
    if (tops.length >= MAX_FRAMES) break;
    if (covered(box.y, Math.min(box.height, VIEWPORT.height))) continue;
    tops.push(Math.max(0, Math.min(box.y - 120, pageHeight - VIEWPORT.height)));
  }
  return tops;
}
