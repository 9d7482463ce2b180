import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

export interface RouteJavaScript {
  /** Each script the page fetched, by path, with its size as served and gzipped. */
  files: { path: string; bytes: number; gzipped: number }[];
  bytes: number;
  gzipped: number;
}

/** The sign-in page's JavaScript may not grow past this, gzipped (docs/web-app.md, Loading). */
export const SIGN_IN_BUDGET_BYTES = 100 * 1024;

/**
 * What a browser downloads as JavaScript to show `url`: opened in a new context (an empty cache, so a
 * first visit), `ready` waited for, then the network left to go quiet so that chunks loaded after the first
 * paint count too. Each script response's body is gzipped here (level 9, as bench/player.ts counts), which
 * is what a compressing proxy in front of the server sends.
 */
export async function routeJavaScript(
  browser: Browser,
  url: string,
  ready: (page: Page) => Promise<unknown>,
  options: BrowserContextOptions & { prepare?: (page: Page) => Promise<unknown> } = {},
): Promise<RouteJavaScript> {
  const { prepare, ...contextOptions } = options;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...contextOptions });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await prepare?.(page);
    const bodies = new Map<string, Promise<Buffer>>();
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      const type = response.headers()['content-type'] ?? '';
      if (response.ok() && (type.includes('javascript') || path.endsWith('.js')) && !bodies.has(path)) bodies.set(path, response.body());
    });
    await page.goto(url);
    await ready(page);
    await page.waitForLoadState('networkidle');
    const files = await Promise.all(
      [...bodies].map(async ([path, body]) => {
        const bytes = await body;
        return { path, bytes: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
      }),
    );
    files.sort((a, b) => b.gzipped - a.gzipped);
    return { files, bytes: sum(files.map((f) => f.bytes)), gzipped: sum(files.map((f) => f.gzipped)) };
  } finally {
    await context.close();
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
