/**
 * First paint in Chromium, as a viewer and a member meet it, on a fresh browser context each time (cold
 * cache, no cookies):
 *
 * - a share link: navigation start → the frame after the first step's picture has loaded (the player's
 *   `demoshare:first-step` mark), against a static page of the same server's origin that shows the same
 *   picture (navigation start → the frame after its <img> has loaded and decoded): the ratio is what the
 *   player, its API calls and the gates cost over the least any page showing that picture could;
 * - the web app's sign-in page: navigation start → the e-mail field rendered by React (its handlers are
 *   attached at the same commit), with the form's submit button enabled.
 *
 * Called by bench/run.ts against its server, per engine. Bounded: `runs` page loads of each.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchBrowser, RECORD_FETCHES } from '../test/helpers/browser';
import { keyedApi } from './api-call';
import { benchScreenshot } from './recording-upload';

export interface FirstPaintTimings {
  runs: number;
  /** Medians and p90s in ms from navigation start. */
  link: { p50: number; p90: number };
  staticPage: { p50: number; p90: number };
  signIn: { p50: number; p90: number };
  /** link p50 / static page p50 (the aim: ≤ 1.5). */
  ratio: number;
  /**
   * Where the link's time goes (p50, ms from navigation start): the page's first byte and its last, the
   * player's stylesheet, script and first picture received (Resource Timing's responseEnd), the player's
   * script running, the link's state known, the payload in hand.
   */
  phases: { html: number; htmlEnd: number; css: number; script: number; image: number; start: number; state: number; demo: number; staticImage: number };
  /** API requests (`/v1/`) the page made before its first step was on screen, in the median load. */
  apiRequestsBeforePaint: number;
}

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const summary = (xs: number[]) => ({ p50: quantile(xs, 0.5), p90: quantile(xs, 0.9) });

/**
 * The static baseline: one HTML page and the same PNG bytes the demo's first step shows, from a bare
 * Node server on the same machine (no framework, no database), both with the headers the app sends assets with.
 */
async function staticSite(png: Buffer): Promise<{ url: string; server: Server }> {
  const html =
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Static</title><style>body{margin:0;background:#111}img{display:block;max-width:100%;height:auto;margin:auto}</style></head>' +
    '<body><img id="shot" src="/step.png" width="1280" height="800" alt="">' +
    // The same definition of "painted" as the player's: the frame after the picture has loaded and decoded.
    "<script>const i=document.getElementById('shot');i.decode().then(()=>requestAnimationFrame(()=>performance.mark('static:painted')));</script>" +
    '</body></html>';
  const server = createServer((req, res) => {
    if (req.url === '/step.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length, 'cache-control': 'private, max-age=3600' });
      res.end(png);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** A published five-step demo with one open link (no gates), whose first step is `png`. */
async function publishedLink(appUrl: string, key: string, png: Buffer): Promise<string> {
  const call = keyedApi(appUrl, key);
  const demo = await call('POST', '/demos', { title: 'First paint', type: 'interactive' });
  for (let i = 0; i < 5; i++) {
    const step = await call('POST', `/demos/${demo.id}/steps`, i === 0 ? png : await benchScreenshot(100 + i), 'image/png');
    await call('POST', `/demos/${demo.id}/steps/${step.id}/hotspots`, { x: 0.2, y: 0.2, width: 0.1, height: 0.1, label: `Step ${i + 1}` });
  }
  await call('PATCH', `/demos/${demo.id}`, { status: 'published' });
  const share = await call('POST', `/demos/${demo.id}/shares`, { name: 'first paint bench' });
  return appUrl + new URL(share.url).pathname;
}

/** Link, static page and sign-in page, interleaved run by run so the machine's load falls on all three alike. */
export async function benchFirstPaint(appUrl: string, key: string, runs = 15): Promise<FirstPaintTimings | undefined> {
  const browser = await launchBrowser();
  if (!browser) return undefined;
  const png = await benchScreenshot(1);
  const site = await staticSite(png);
  try {
    const link = await publishedLink(appUrl, key, png);
    const samples = { link: [] as number[], staticPage: [] as number[], signIn: [] as number[] };
    const phases = {
      html: [] as number[],
      htmlEnd: [] as number[],
      css: [] as number[],
      script: [] as number[],
      image: [] as number[],
      start: [] as number[],
      state: [] as number[],
      demo: [] as number[],
      api: [] as number[],
    };
    const staticImage: number[] = [];
    const cold = async <T>(fn: (page: import('playwright-core').Page) => Promise<T>): Promise<T> => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        return await fn(await context.newPage());
      } finally {
        await context.close();
      }
    };
    // waitForFunction with a function, not a string: the viewer page's CSP forbids eval, and a string is eval'd.
    const markTime = async (page: import('playwright-core').Page, name: string) => {
      await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, name, { timeout: 30_000 });
      return (await page.evaluate((mark) => performance.getEntriesByName(mark)[0]!.startTime, name)) as number;
    };
    // One load of each first, not counted: Chromium's own first-use costs (its disk cache, V8) fall there.
    for (let i = -1; i < runs; i++) {
      const linkMs = await cold(async (page) => {
        // Each fetch the page starts, with its time, to count the API requests begun before the first step.
        await page.addInitScript(RECORD_FETCHES);
        await page.goto(link);
        const ms = await markTime(page, 'demoshare:first-step');
        if (i >= 0) {
          // A mark the player did not set (the page's bootstrap made its request needless) counts as at the first step.
          const seen = (await page.evaluate(`(() => {
            const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
            const painted = at('demoshare:first-step');
            const api = window.__fetches.filter((f) => f.at <= painted && new URL(f.url, location.href).pathname.startsWith('/v1/') && !f.url.includes('/assets/')).length;
            const nav = performance.getEntriesByType('navigation')[0];
            const got = (test) => performance.getEntriesByType('resource').find((r) => test(new URL(r.name).pathname))?.responseEnd ?? null;
            return {
              html: nav.responseStart, htmlEnd: nav.responseEnd,
              css: got((p) => p.endsWith('/player.css')), script: got((p) => p.endsWith('/player.js')),
              image: got((p) => p.includes('/assets/')),
              start: at('demoshare:start'), state: at('demoshare:state'), demo: at('demoshare:demo'), api,
            };
          })()`)) as Record<'html' | 'htmlEnd' | 'css' | 'script' | 'image' | 'start' | 'state' | 'demo', number | null> & { api: number };
          for (const name of ['html', 'htmlEnd', 'css', 'script', 'image'] as const) phases[name].push(seen[name] ?? ms);
          phases.start.push(seen.start ?? ms);
          phases.state.push(seen.state ?? ms);
          phases.demo.push(seen.demo ?? ms);
          phases.api.push(seen.api);
        }
        return ms;
      });
      const staticMs = await cold(async (page) => {
        await page.goto(site.url);
        const ms = await markTime(page, 'static:painted');
        if (i >= 0) {
          staticImage.push(
            (await page.evaluate(`performance.getEntriesByType('resource').find((r) => r.name.endsWith('/step.png'))?.responseEnd ?? null`)) ?? ms,
          );
        }
        return ms;
      });
      const signInMs = await cold(async (page) => {
        // Recorded in the page, from navigation start, the moment React's form is there: a string, not a
        // function (tsx would wrap a named helper in a __name() the page does not have).
        await page.addInitScript(`new MutationObserver((_, observer) => {
          const email = document.querySelector('input[type=email]');
          const submit = document.querySelector('form button[type=submit]');
          if (email && submit && !submit.disabled) { performance.mark('signin:interactive'); observer.disconnect(); }
        }).observe(document, { childList: true, subtree: true, attributes: true });`);
        await page.goto(`${appUrl}/login`);
        return markTime(page, 'signin:interactive');
      });
      if (i < 0) continue;
      samples.link.push(linkMs);
      samples.staticPage.push(staticMs);
      samples.signIn.push(signInMs);
    }
    const timings = { runs, link: summary(samples.link), staticPage: summary(samples.staticPage), signIn: summary(samples.signIn) };
    const p50 = (xs: number[]) => quantile(xs, 0.5);
    return {
      ...timings,
      ratio: timings.link.p50 / timings.staticPage.p50,
      phases: {
        html: p50(phases.html),
        htmlEnd: p50(phases.htmlEnd),
        css: p50(phases.css),
        script: p50(phases.script),
        image: p50(phases.image),
        start: p50(phases.start),
        state: p50(phases.state),
        demo: p50(phases.demo),
        staticImage: p50(staticImage),
      },
      apiRequestsBeforePaint: p50(phases.api),
    };
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => site.server.close(() => resolve()));
  }
}

/** One line of the bench's output. */
export function firstPaintLine(engine: string, t: FirstPaintTimings | undefined): string {
  if (!t) return `${engine} first paint: skipped (no Chromium; set CHROMIUM_PATH)`;
  return (
    `${engine} first paint, ${t.runs} cold loads each: share link → first step p50 ${t.link.p50.toFixed(0)} ms (p90 ${t.link.p90.toFixed(0)}), ` +
    `static page with the same picture p50 ${t.staticPage.p50.toFixed(0)} ms (p90 ${t.staticPage.p90.toFixed(0)}; its picture in at ${t.phases.staticImage.toFixed(0)}): ratio ${t.ratio.toFixed(2)} (aim ≤ 1.5); ` +
    `(page's first byte at ${t.phases.html.toFixed(0)} ms, last at ${t.phases.htmlEnd.toFixed(0)}; CSS in at ${t.phases.css.toFixed(0)}, ` +
    `script in at ${t.phases.script.toFixed(0)}, picture in at ${t.phases.image.toFixed(0)}; ` +
    `player running at ${t.phases.start.toFixed(0)} ms, state at ${t.phases.state.toFixed(0)}, payload at ${t.phases.demo.toFixed(0)}; ` +
    `${t.apiRequestsBeforePaint} API requests before the first step); ` +
    `sign-in page interactive p50 ${t.signIn.p50.toFixed(0)} ms (p90 ${t.signIn.p90.toFixed(0)}; aim ≤ 1000)`
  );
}
