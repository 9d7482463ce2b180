import render from 'dom-serializer';
import { Element as DomElement, type Element, Text } from 'domhandler';
import { appendChild, replaceElement } from 'domutils';
import { parseDocument } from 'htmlparser2';
import type { SafeFetch } from '../core/net/safe-fetch';
import { findFirst, forEachElement } from './dom-walk';
import { inlineFonts } from './font-inliner';
import { type ElementLayout, extractFacts, type PageFacts } from './html-elements';
import { absolutizeCss, cssForStyleElement, sanitizeDocument } from './sanitize';

export interface SnapshotOptions {
  net: SafeFetch;
  /** Deadline of this page, as epoch milliseconds. */
  deadline: number;
  /** Layout per element, keyed by the `data-ds-n` number the in-page probe stamped (Chromium mode). */
  layout?: Map<number, ElementLayout>;
  /** Stylesheets already fetched (by the browser), by address. */
  stylesheets?: Map<string, { url: string; body: Buffer }>;
}

export interface Snapshot extends PageFacts {
  html: string;
}

export const LAYOUT_ATTRIBUTE = 'data-ds-n';
const MAX_SHEETS = 6;
const MAX_SHEET_BYTES = 512 * 1024;
const MAX_INLINED_BYTES = 1024 * 1024;

/**
 * Parses a page's HTML, sanitises it, inlines its stylesheets (fetched through the SSRF guard, within a
 * cap; the rest stay as absolute links), and reads the facts a tour is written from.
 */
export async function buildSnapshot(html: string, pageUrl: string, options: SnapshotOptions): Promise<Snapshot> {
  const doc = parseDocument(html);
  const layout = new Map<Element, ElementLayout>();
  if (options.layout) {
    forEachElement(doc, (el) => {
      const n = el.attribs[LAYOUT_ATTRIBUTE];
      if (n !== undefined) {
        const known = options.layout?.get(Number(n));
        if (known) layout.set(el, known);
        delete el.attribs[LAYOUT_ATTRIBUTE];
      }
      return true;
    });
  }
  const { stylesheets, mayReach } = sanitizeDocument(doc, pageUrl, (url) => {
    try {
      options.net.parse(url);
      return true;
    } catch {
      return false;
    }
  });
  await inlineStylesheets(stylesheets, options, mayReach);
  await inlineFonts(doc, options);
  showRevealedOnScroll(doc);
  const facts = extractFacts(doc, pageUrl, options.layout ? layout : undefined);
  return { ...facts, html: render(doc, { encodeEntities: 'utf8' }) };
}

/**
 * Blocks that sites reveal when scrolled into view (AOS, Webflow interactions, WOW, "reveal" classes) start
 * transparent and wait for a script the snapshot does not run: the player shows them as they end up.
 */
const REVEALED =
  '[data-aos], [data-w-id][style*="opacity:0"], [data-w-id][style*="opacity: 0"], [data-sal], [data-scroll], .wow, .reveal, .aos-init, .animate-on-scroll { opacity: 1 !important; transform: none !important; visibility: visible !important; }';

function showRevealedOnScroll(doc: ReturnType<typeof parseDocument>): void {
  const head = findFirst(doc, 'head');
  if (head) appendChild(head, new DomElement('style', { 'data-demoshare': 'shown' }, [new Text(REVEALED)]));
}

async function inlineStylesheets(links: Element[], options: SnapshotOptions, mayReach: (url: string) => boolean): Promise<void> {
  let inlined = 0;
  for (const link of links.slice(0, MAX_SHEETS)) {
    const href = link.attribs.href;
    const remaining = options.deadline - Date.now();
    if (!href || remaining < 500 || inlined >= MAX_INLINED_BYTES) continue;
    try {
      const sheet = options.stylesheets?.get(href) ?? (await fetchStylesheet(href, options, Math.min(MAX_SHEET_BYTES, MAX_INLINED_BYTES - inlined), remaining));
      if (!sheet || sheet.body.length > Math.min(MAX_SHEET_BYTES, MAX_INLINED_BYTES - inlined)) continue;
      const css = sheet.body.toString('utf8');
      inlined += sheet.body.length;
      const style = new DomElement('style', link.attribs.media ? { media: link.attribs.media } : {});
      appendChild(style, new Text(cssForStyleElement(absolutizeCss(css, sheet.url, mayReach))));
      replaceElement(link, style);
    } catch {
      // An unreachable or refused stylesheet stays an absolute link; the snapshot is still usable.
    }
  }
}

async function fetchStylesheet(href: string, options: SnapshotOptions, maxBytes: number, remaining: number) {
  const res = await options.net.fetch(href, {
    maxRedirects: 3,
    maxBytes,
    timeoutMs: Math.min(remaining, 5_000),
    headers: { accept: 'text/css,*/*;q=0.1' },
  });
  return res.status === 200 && !res.truncated ? { url: res.url, body: res.body } : null;
}
