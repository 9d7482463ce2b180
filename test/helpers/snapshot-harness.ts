import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import render from 'dom-serializer';
import { parseDocument } from 'htmlparser2';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build, type Rolldown } from 'vite';
import { sanitizeDocument } from '../../src/generation/sanitize';
import type * as Snapshot from '../../extension/src/content/snapshot';
import type * as Privacy from '../../extension/src/shared/privacy';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What the bundle puts on `window.__demoshareSnapshot`. */
export type SnapshotGlobal = typeof Snapshot & { privacy: typeof Privacy };

let bundle: Promise<string> | null = null;

/**
 * The extension's snapshot code (extension/src/content/snapshot.ts and shared/privacy.ts) bundled for a
 * page with Vite's build API: one IIFE that sets `window.__demoshareSnapshot`. Built once per process,
 * in memory.
 */
export function snapshotBundle(): Promise<string> {
  bundle ??= buildBundle();
  return bundle;
}

async function buildBundle(): Promise<string> {
  const result = await build({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    publicDir: false,
    build: {
      write: false,
      minify: false,
      target: 'chrome120',
      lib: { entry: join(ROOT, 'test/helpers/snapshot-entry.ts'), formats: ['iife'], name: '__demoshareSnapshot', fileName: () => 'snapshot.js' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk');
  if (chunk?.type !== 'chunk') throw new Error('vite build produced no chunk for the snapshot bundle');
  return chunk.code;
}

/** Injects the bundle into the page (its top document). */
export async function injectSnapshot(page: Page): Promise<void> {
  await page.addScriptTag({ content: await snapshotBundle() });
}

/**
 * Stands in for the extension's background worker: fetches with Node's fetch, sending the browser
 * context's cookies for the address (the worker fetches with the user's session), and returns text for
 * stylesheets and a data: URL for fonts and images.
 */
export function nodeFetchResource(context: BrowserContext, log?: string[]): Snapshot.FetchResource {
  return async (url, kind) => {
    log?.push(`${kind} ${url}`);
    const cookies = await context.cookies(url);
    const res = await fetch(url, {
      headers: cookies.length ? { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') } : {},
    }).catch(() => null);
    if (!res?.ok) return null;
    const contentType = res.headers.get('content-type') ?? '';
    if (kind === 'css') return { url: res.url, contentType, text: await res.text() };
    const data = Buffer.from(await res.arrayBuffer());
    const type = contentType.split(';')[0]!.trim() || 'application/octet-stream';
    return { url: res.url, contentType, dataUrl: `data:${type};base64,${data.toString('base64')}` };
  };
}

/** What the server does to a recorded snapshot: parse, sanitise (src/generation/sanitize.ts), render. */
export function sanitizeSnapshot(html: string, pageUrl: string): string {
  const doc = parseDocument(html);
  sanitizeDocument(doc, pageUrl);
  return render(doc, { encodeEntities: 'utf8' });
}

/**
 * A page in a new context that can reach nothing: the snapshot is served at `address`, every other
 * request is aborted and listed in `blocked`.
 */
export async function offlineSnapshotPage(
  browser: Browser,
  html: string,
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page; blocked: string[] }> {
  const address = 'http://snapshot.invalid/';
  const context = await browser.newContext({ viewport });
  const blocked: string[] = [];
  await context.route('**/*', (route) => {
    if (route.request().url() === address) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
    blocked.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  await page.goto(address);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return { context, page, blocked };
}

/**
 * Freeze times (ms, measured with performance.now() inside the page) of `runs` freezes of the page as it
 * is, reading every element's scroll offsets ('all'), only those a scroll tracker saw ('tracker'), or
 * the default ('auto': all on the first freeze, which starts a tracker, then the tracker's).
 */
export async function freezeTimes(
  page: Page,
  runs: number,
  options: { target?: string; scroll?: 'all' | 'tracker' | 'auto' } = {},
): Promise<{ times: number[]; elements: number }> {
  return page.evaluate(
    ({ runs, target, scroll }) => {
      const api = (window as unknown as { __demoshareSnapshot: SnapshotGlobal }).__demoshareSnapshot;
      const el = target ? document.querySelector(target) : null;
      const tracker = scroll === 'tracker' ? api.trackScrolling(document) : null;
      const times: number[] = [];
      // With --js-flags=--expose-gc (the benchmark), collect the previous run's clone first, as the idle time
      // between two real clicks would: otherwise a run may pay for collecting the one before.
      const gc = (window as unknown as { gc?: () => void }).gc;
      for (let i = 0; i < runs; i++) {
        gc?.();
        const started = performance.now();
        api.freezeDocument(document, { target: el, scroll: tracker ?? (scroll === 'auto' ? 'auto' : 'all') });
        times.push(performance.now() - started);
      }
      tracker?.stop();
      return { times, elements: document.getElementsByTagName('*').length };
    },
    { runs, target: options.target, scroll: options.scroll ?? 'all' },
  );
}

/**
 * One freeze and serialisation of the page, with fetchResource going to `window.__fetchResource`
 * (exposed by the caller); the serialisation's wall time is measured inside the page.
 */
export async function snapshotOnce(page: Page, target?: string): Promise<{ freezeMs: number; serializeMs: number; snapshot: Snapshot.SerializedSnapshot }> {
  return page.evaluate(async (target) => {
    const win = window as unknown as { __demoshareSnapshot: SnapshotGlobal; __fetchResource: Snapshot.FetchResource };
    const api = win.__demoshareSnapshot;
    const started = performance.now();
    const frozen = api.freezeDocument(document, { target: target ? document.querySelector(target) : null });
    const frozenAt = performance.now();
    const snapshot = await api.serializeFrozen(frozen, { fetchResource: win.__fetchResource });
    return { freezeMs: frozenAt - started, serializeMs: performance.now() - frozenAt, snapshot };
  }, target);
}

/** The value at quantile `q` (0–1) of `values`, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}
