import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page, type Request } from 'playwright-core';
import { onTestFailed } from 'vitest';
import { CHROMIUM_BASE_ARGS, findChromium } from '../../src/generation/chromium';

/** The Chromium the browser tests run (CHROMIUM_PATH, else the usual paths); `path` is null when there is none. */
export const CHROMIUM = findChromium();

/**
 * Launches the system Chromium, or returns null (after saying so loudly) when there is none, so that
 * browser tests skip visibly instead of failing on machines without a browser.
 */
export async function launchBrowser(): Promise<Browser | null> {
  if (!CHROMIUM.path) {
    console.warn(
      `\n${'!'.repeat(78)}\n!! BROWSER TESTS SKIPPED: ${CHROMIUM.reason}.\n` +
        `!! Install Chromium or set CHROMIUM_PATH to run them.\n${'!'.repeat(78)}\n`,
    );
    return null;
  }
  return chromium.launch({ executablePath: CHROMIUM.path, args: [...CHROMIUM_BASE_ARGS] });
}

/** The session's cookies (`name=value; name=value`, as a test session holds them) for `origin`, for addCookies. */
export function sessionCookies(session: { cookie: string }, origin: string) {
  return session.cookie.split('; ').map((pair) => {
    const [name, ...value] = pair.split('=');
    return { name: name!, value: value.join('='), url: origin };
  });
}

/**
 * A page in a new browser context signed in as `session` (its cookies set for `origin`). Close the
 * context, or the browser, when done.
 */
export async function signedInPage(
  browser: Browser,
  origin: string,
  session: { cookie: string },
  viewport = { width: 1280, height: 900 },
  options: BrowserContextOptions & { timeoutMs?: number } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const { timeoutMs = 15_000, ...contextOptions } = options;
  const context = await browser.newContext({ viewport, ...contextOptions });
  await context.addCookies(sessionCookies(session, origin));
  const page = await context.newPage();
  page.setDefaultTimeout(timeoutMs);
  explainFailures(page);
  return { context, page };
}

/**
 * When the running test fails, prints what the page met on the way: the API's refusals, requests that failed
 * or were still unanswered, script errors. A locator that times out says only what it waited for; this says
 * why it never came (a request refused, or one the server had not answered).
 */
export function explainFailures(page: Page) {
  const opened = Date.now();
  const at = () => `${((Date.now() - opened) / 1000).toFixed(1)} s`;
  const seen: string[] = [];
  const pending = new Map<Request, number>();
  const api = (request: Request) => new URL(request.url()).pathname.startsWith('/v1/');
  page.on('request', (request) => {
    if (api(request)) pending.set(request, Date.now());
  });
  page.on('requestfinished', (request) => void pending.delete(request));
  page.on('response', (response) => {
    if (response.status() >= 400 && api(response.request())) {
      seen.push(`${at()}: ${response.request().method()} ${response.url()} answered ${response.status()}`);
    }
  });
  page.on('requestfailed', (request) => {
    pending.delete(request);
    seen.push(`${at()}: ${request.method()} ${request.url()} failed: ${request.failure()?.errorText}`);
  });
  page.on('pageerror', (error) => seen.push(`${at()}: script error: ${error.message}`));
  try {
    onTestFailed(() => {
      const waiting = [...pending].map(([r, since]) => `${at()}: ${r.method()} ${r.url()} unanswered for ${Date.now() - since} ms`);
      const lines = [...seen, ...waiting];
      if (lines.length > 0) console.error(`What the page met before the failure:\n  ${lines.join('\n  ')}`);
    });
  } catch {
    // Opened outside a test (a beforeAll): there is no test whose failure to explain.
  }
}

/**
 * Waits until the page's CSS transitions and animations that end have ended (at most 5 s): a box measured
 * mid-way (the sidebar sliding off after a resize to phone width) is neither where it was nor where it goes.
 * Endless ones (a spinner) are not waited for.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // A resize or a class change starts its transitions at the next style update: let two frames pass first.
    for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
    const ending = document
      .getAnimations()
      .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime ?? Number.POSITIVE_INFINITY)));
    const done = Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  });
}

/**
 * Up to eight places where content runs out of sight, or out of its box, at the page's width; each named
 * (tag, classes, and the text when text it is) so that a failure says what overflows and past what. All
 * horizontal:
 *
 * - an element reaching past the window's edges (the page would scroll sideways, or cut it on the left);
 * - an element reaching past an ancestor that clips it without scrolling (overflow hidden or clip), and
 *   a clipping box holding more than it shows (scrollWidth over clientWidth): the part past the edge is
 *   simply not shown;
 * - a run of text past its own block's box (an unbroken id in an alert): it spills over the border, or is
 *   cut by a dialog that scrolls only because of it;
 * - an element past its parent's box where the parent lets it show (a flex child that will not shrink).
 *
 * Against a clipping ancestor or a parent, what counts of a box is what can be seen of it: all of it when
 * it draws a background, a border or a shadow, else its content (padding with a matching negative margin
 * shows nothing). Past the window's right edge all of it counts: any of it there widens the page.
 *
 * Not flagged, because the page means them: what a scroll container (overflow auto or scroll: a table's
 * horizontally scrollable wrapper) holds past its edge, which can be scrolled to; text cut with an
 * ellipsis (text-overflow: ellipsis); visually hidden elements (a clip, or a 1 px box that clips, as
 * .visually-hidden) and everything in them; what sits wholly off the window's left or wholly inside a
 * clipping box's hidden part (moved out of sight on purpose); absolutely positioned boxes against their
 * parent (placed there on purpose; still checked against the window and what clips them); the inside of
 * an SVG picture. Vertical overflow is not checked: clipping a height (line clamps, folding panels) is
 * usually meant.
 */
export async function overflowing(page: Page): Promise<string[]> {
  await settled(page);
  return page.evaluate(() => {
    const SLACK = 1;
    const found: string[] = [];
    const reported = new Set<Element>();
    const label = (el: Element) => {
      const classes = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter(Boolean) : [];
      return `${el.tagName}${el.id ? `#${el.id}` : ''}${classes.map((c) => `.${c}`).join('')}`;
    };
    // A bare tag says little: the nearest ancestor with a class or an id says where it is.
    const name = (el: Element) => {
      const own = label(el);
      if (own !== el.tagName) return own;
      const landmark = el.parentElement?.closest('[class], [id]');
      return landmark && landmark !== document.body ? `${own} in ${label(landmark)}` : own;
    };
    const report = (el: Element, what: string) => {
      if (reported.has(el)) return;
      reported.add(el);
      found.push(what);
    };
    const styles = new Map<Element, CSSStyleDeclaration>();
    const styleOf = (el: Element) => {
      const known = styles.get(el);
      if (known) return known;
      const style = getComputedStyle(el);
      styles.set(el, style);
      return style;
    };
    const isRoot = (el: Element) => el === document.documentElement || el === document.body;
    const scrolls = (s: CSSStyleDeclaration) => s.overflowX === 'auto' || s.overflowX === 'scroll';
    const clips = (s: CSSStyleDeclaration) => s.overflowX === 'hidden' || s.overflowX === 'clip';
    const ellipsis = (s: CSSStyleDeclaration) => s.textOverflow === 'ellipsis' && s.overflowX !== 'visible';
    const hiddenCache = new Map<Element, boolean>();
    /** Out of sight by design: not displayed, visibility hidden, clipped away as .visually-hidden, or inside such. */
    const hidden = (el: Element): boolean => {
      const known = hiddenCache.get(el);
      if (known !== undefined) return known;
      const s = styleOf(el);
      const box = el.getBoundingClientRect();
      const result =
        s.display === 'none' ||
        s.visibility === 'hidden' ||
        (s.position === 'absolute' && s.clip !== 'auto') ||
        (clips(s) && box.width <= SLACK && box.height <= SLACK) ||
        (el.parentElement ? hidden(el.parentElement) : false);
      hiddenCache.set(el, result);
      return result;
    };
    const insideSvg = (el: Element) => el instanceof SVGElement && !(el instanceof SVGSVGElement);
    const viewport = { left: 0, right: document.documentElement.clientWidth };
    /** Where `el` shows what it holds: its padding box. */
    const innerEdges = (el: Element) => {
      const left = el.getBoundingClientRect().left + el.clientLeft;
      return { left, right: left + el.clientWidth };
    };
    /**
     * The nearest ancestor whose overflow applies to `el`, one that clips or scrolls, along its chain of
     * containing blocks: an absolutely positioned box escapes the overflow of the ancestors below its
     * containing block, a fixed one that of every ancestor short of a transformed one. Null: the window.
     */
    const clipperOf = (el: Element): Element | null => {
      let mode = styleOf(el).position;
      for (let node = el.parentElement; node && !isRoot(node); node = node.parentElement) {
        const s = styleOf(node);
        const holdsFixed = s.transform !== 'none' || s.filter !== 'none' || s.perspective !== 'none' || /paint|strict|content/.test(s.contain);
        const holdsAbsolute = s.position !== 'static' || holdsFixed;
        if (mode === 'fixed' ? !holdsFixed : mode === 'absolute' ? !holdsAbsolute : false) continue;
        if (clips(s) || scrolls(s)) return node;
        mode = s.position;
      }
      return null;
    };

    const px = (value: string) => Number.parseFloat(value) || 0;
    const transparent = (colour: string) => colour === 'transparent' || /^rgba\(.*,\s*0\)$/.test(colour);
    /**
     * What of `el`'s box can be seen: the border box when it draws a background, a border or a shadow, else
     * only its content box (padding with a matching negative margin, room for focus rings, shows nothing).
     */
    const seenEdges = (el: Element, s: CSSStyleDeclaration, box: DOMRect) => {
      const draws =
        s.backgroundImage !== 'none' ||
        !transparent(s.backgroundColor) ||
        s.boxShadow !== 'none' ||
        (px(s.borderLeftWidth) > 0 && s.borderLeftStyle !== 'none') ||
        (px(s.borderRightWidth) > 0 && s.borderRightStyle !== 'none');
      if (draws || el instanceof SVGElement) return { left: box.left, right: box.right };
      return {
        left: box.left + px(s.borderLeftWidth) + px(s.paddingLeft),
        right: box.right - px(s.borderRightWidth) - px(s.paddingRight),
      };
    };

    for (const el of document.querySelectorAll('body *')) {
      if (insideSvg(el) || hidden(el)) continue;
      const s = styleOf(el);
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;

      // Past what shows it: the window, or an ancestor that clips. What a scroll container holds can be
      // scrolled to. Past the window's right edge the whole box counts: it widens the page.
      const clipper = clipperOf(el);
      if (!clipper || !scrolls(styleOf(clipper))) {
        const edges = clipper ? innerEdges(clipper) : viewport;
        const seen = seenEdges(el, s, box);
        if (!clipper) seen.right = box.right;
        const past = Math.max(seen.right - edges.right, edges.left - seen.left);
        // Wholly off the window's left, or wholly in a clipping box's hidden part: out of sight on purpose.
        const outOfSight = box.right <= edges.left || (clipper !== null && box.left >= edges.right);
        if (past > SLACK && !outOfSight && !(clipper && ellipsis(styleOf(clipper)))) {
          report(
            el,
            clipper
              ? `${name(el)} runs ${Math.round(past)}px past ${name(clipper)}, which cuts it off`
              : `${name(el)} spans ${Math.round(box.left)}…${Math.round(box.right)}px, past the window's 0…${edges.right}px`,
          );
        }
      }

      // A box that clips holding more than it shows (also what the other checks cannot name, as ::after).
      if (clips(s) && !ellipsis(s) && !s.display.startsWith('inline') && !/^(IMG|VIDEO|CANVAS|IFRAME|INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.scrollWidth > el.clientWidth + SLACK) {
        report(el, `${name(el)} holds ${el.scrollWidth - el.clientWidth}px more than it shows (overflow ${s.overflowX})`);
      }

      // Past its parent's box where the parent lets it show.
      const parent = el.parentElement;
      if (parent && !isRoot(parent) && s.position !== 'absolute' && s.position !== 'fixed') {
        const ps = styleOf(parent);
        if (ps.overflowX === 'visible' && ps.display !== 'inline' && ps.display !== 'contents') {
          const outer = parent.getBoundingClientRect();
          const seen = seenEdges(el, s, box);
          const past = Math.max(seen.right - outer.right, outer.left - seen.left);
          if (past > SLACK) report(el, `${name(el)} runs ${Math.round(past)}px past its parent ${name(parent)}`);
        }
      }
    }

    // Runs of text past their own block's box: the words that would not break.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const holder = text.parentElement;
      const words = text.textContent?.trim().replace(/\s+/g, ' ');
      if (!holder || !words || insideSvg(holder) || hidden(holder)) continue;
      if (holder.closest('script, style, noscript, template, textarea, select')) continue;
      let block = holder;
      while (block.parentElement && /^(inline|contents)$/.test(styleOf(block).display)) block = block.parentElement;
      const bs = styleOf(block);
      if (scrolls(bs) || ellipsis(bs)) continue;
      range.selectNodeContents(text);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      if (rects.length === 0) continue;
      const edges = innerEdges(block);
      const left = Math.min(...rects.map((r) => r.left));
      const right = Math.max(...rects.map((r) => r.right));
      const past = Math.max(right - edges.right, edges.left - left);
      if (past > SLACK) {
        const quoted = words.length > 40 ? `${words.slice(0, 40)}…` : words;
        report(block, `${name(block)}: text "${quoted}" runs ${Math.round(past)}px past its box`);
      }
    }
    return found.slice(0, 8);
  });
}

/**
 * Holds every request matching `pattern` until `release()`, and says when the first one was made, so
 * a test can look at a list while its next page is on the way.
 */
export async function holdRequests(page: Page, pattern: RegExp) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let asked!: () => void;
  const requested = new Promise<void>((resolve) => {
    asked = resolve;
  });
  await page.route(pattern, async (route) => {
    asked();
    await held;
    await route.continue();
  });
  return { requested, release: () => release() };
}

/**
 * An init script that keeps each fetch a page starts, with its time, in `window.__fetches`: what started
 * before a performance mark came before it (the first paint's API requests, docs/player.md).
 */
export const RECORD_FETCHES = `window.__fetches = [];
  const original = window.fetch;
  window.fetch = function (input, init) {
    window.__fetches.push({ url: String(input instanceof Request ? input.url : input), at: performance.now() });
    return original.apply(this, arguments);
  };`;
