import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
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
  return { context, page };
}

/** Up to five elements reaching past the window's right edge, named so a failure says what overflows. */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
  );
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
