import { type Browser, chromium, type Page } from 'playwright-core';
import type { SafeFetch } from '../core/net/safe-fetch';
import { guardContext, type GuardStats } from './browser-guard';
import { CaptureError } from './capture-error';
import { CHROMIUM_BASE_ARGS } from './chromium';
import type { CapturedElement, CapturedFrame, CapturedPage, PixelBox } from './generation.types';
import { type Capturer, type CaptureSession, CapturerUnavailableError, type GenerationLog } from './generator';
import { CONSENT, type ElementLayout } from './html-elements';
import { FINISH_ANIMATIONS, STAMP_SCRIPT, type StampResult, scrollToScript } from './page-probe';
import { buildSnapshot, type SnapshotWorkers } from './snapshot';

export const VIEWPORT = { width: 1280, height: 800 };

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
const MAX_FRAMES = 6;
/** Room above an element in its screenshot, so the reader sees what leads to it (and a sticky header does not cover it). */
const SHOT_MARGIN = 120;
const MAX_REQUESTS_PER_JOB = 400;
const MAX_BYTES_PER_JOB = 60 * 1024 * 1024;
const SETTLE_MS = 2_500;
/** Characters of text at load from which a page counts as rendered (a client-rendered app has a few). */
const RENDERED_TEXT = 400;
/** Waits for the page's fonts and the next frame, and says how much text the page shows. */
const SETTLE_SCRIPT = `(async () => {
  await Promise.race([document.fonts.ready, new Promise((done) => setTimeout(done, 500))]);
  await new Promise((done) => requestAnimationFrame(() => done()));
  return document.body ? document.body.innerText.length : 0;
})()`;
const RELAUNCH_AFTER_FAILURE_MS = 60_000;
/**
 * Text that scripts are still changing (a dashboard's counters counting up, a ticker) is read once it stops,
 * or the tour would quote a figure the page never shows at rest: the page's text, sampled every 100 ms until
 * two samples agree, for at most 1.5 s (a text that never stops is read as it is then).
 */
const TEXT_AT_REST_SCRIPT = `(async () => {
  const read = () => (document.body ? document.body.innerText : '');
  let last = read();
  for (let waited = 0; waited < 1500; waited += 100) {
    await new Promise((done) => setTimeout(done, 100));
    const now = read();
    if (now === last) return;
    last = now;
  }
})()`;

/**
 * Motion frozen before anything is measured: entrance animations and transitions jump to their end (where
 * a visitor sees the element once they settle), looping ones stop at their start, none start afterwards,
 * and scrolling is instant, so boxes, visibility and every screenshot show the page at rest. The style
 * stays in the snapshot, which the player then shows at rest too.
 */
export const FREEZE_MOTION_SCRIPT = `(() => {
  const style = document.createElement('style');
  style.setAttribute('data-demoshare', 'still');
  style.textContent = '*, *::before, *::after { transition: none !important; animation-play-state: paused !important; caret-color: transparent !important; } html, body { scroll-behavior: auto !important; }';
  ${FINISH_ANIMATIONS}
  document.head.appendChild(style);
})()`;

/**
 * Cookie and consent banners cover what the tour shows until a visitor dismisses them: those pinned to
 * the screen (fixed or sticky) and named or worded as such are hidden, in the screenshots and the snapshot.
 */
export const DISMISS_CONSENT_SCRIPT = `(() => {
  const named = ${CONSENT.toString()};
  for (const el of document.body ? document.body.querySelectorAll('*') : []) {
    const position = getComputedStyle(el).position;
    if (position !== 'fixed' && position !== 'sticky') continue;
    const words = (el.innerText || '').slice(0, 800);
    if (named.test((el.id || '') + ' ' + (typeof el.className === 'string' ? el.className : '')) || (/\bcookies?\b|\bconsent\b/i.test(words) && words.length < 800)) {
      el.style.setProperty('display', 'none', 'important');
    }
  }
})()`;

/**
 * Captures pages in headless Chromium through playwright-core: a 1280×800 viewport, a screenshot at the
 * top and further down where the tour's elements are, the boxes of visible elements, and a sanitised
 * snapshot of the rendered DOM. One browser serves every job (a fresh context per job), started on
 * first use; every request of a context goes through the SSRF guard (browser-guard.ts).
 */
export function createChromiumCapturer(deps: { net: SafeFetch; documents: SnapshotWorkers; chromiumPath: string; log?: GenerationLog }): Capturer {
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
        capture: async (url, show) => {
          navigations.clear();
          navigations.add(url);
          await open(page, url, deadline, guard, navigations);
          return readPage(page, deadline, guard, show);
        },
        close: () => context.close().catch(() => {}),
      };
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
  }

  async function readPage(page: Page, deadline: number, guard: GuardStats, show: (page: CapturedPage) => CapturedElement[]): Promise<CapturedPage> {
    if (!/^https?:/.test(page.url())) throw new CaptureError('the page replaced itself with an error page');
    await page.evaluate(TEXT_AT_REST_SCRIPT);
    await page.evaluate(FREEZE_MOTION_SCRIPT);
    await page.evaluate(DISMISS_CONSENT_SCRIPT);
    const stamp = (await page.evaluate(STAMP_SCRIPT)) as StampResult;
    const layout = new Map<number, ElementLayout>(
      stamp.items.map(([n, x, y, width, height, visible, fontSize]) => [n, { box: { x, y, width, height }, visible: visible === 1, key: n, fontSize }]),
    );
    const snapshot = await buildSnapshot(await page.content(), page.url(), { net: deps.net, documents: deps.documents, deadline, layout, stylesheets: guard.stylesheets });
    const captured: CapturedPage = {
      url: page.url(),
      title: snapshot.title || (await page.title()),
      description: snapshot.description,
      screenshot: await page.screenshot({ type: 'png' }),
      frames: [],
      width: VIEWPORT.width,
      height: VIEWPORT.height,
      html: snapshot.html,
      elements: snapshot.elements,
      links: snapshot.links,
    };
    captured.frames = await shoot(page, show(captured), stamp.height);
    return captured;
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
  // Scripts that render after load (single-page apps, with little text at load) get a moment; a busy page
  // does not hold the job. A page with its content there only waits for its fonts and a frame.
  const rendered = (await page.evaluate(SETTLE_SCRIPT).catch(() => 0)) as number;
  if (rendered < RENDERED_TEXT) await page.waitForLoadState('networkidle', { timeout: Math.min(SETTLE_MS, remaining()) }).catch(() => {});
}

/**
 * One screenshot per element a tour may show that the first screen does not: the page is scrolled to put
 * it near the top, scroll-driven scripts react, and its box is measured again there (a reveal animation
 * may have moved it), so the hotspot drawn on that screenshot sits on it. Elements that fit a screenshot
 * already taken share it.
 */
async function shoot(page: Page, elements: CapturedElement[], pageHeight: number): Promise<CapturedFrame[]> {
  const frames: CapturedFrame[] = [];
  const tops = [0];
  const shows = (box: PixelBox, top: number) => box.y >= top && box.y + Math.min(box.height, VIEWPORT.height) <= top + VIEWPORT.height;
  for (const element of [...elements].sort((a, b) => (a.box?.y ?? 0) - (b.box?.y ?? 0))) {
    const box = element.box;
    if (!box || element.probe === undefined || tops.some((top) => shows(box, top))) continue;
    if (frames.length >= MAX_FRAMES) break;
    const wanted = Math.max(0, Math.min(box.y - SHOT_MARGIN, pageHeight - VIEWPORT.height));
    const seen = (await page.evaluate(scrollToScript(element.probe, wanted))) as { top: number; box: PixelBox | null };
    if (seen.box) element.box = seen.box;
    if (tops.includes(seen.top)) continue;
    tops.push(seen.top);
    frames.push({ top: seen.top, screenshot: await page.screenshot({ type: 'png' }) });
  }
  return frames;
}
