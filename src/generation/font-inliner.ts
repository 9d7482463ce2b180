import type { Document, Element } from 'domhandler';
import { Text } from 'domhandler';
import { appendChild, textContent } from 'domutils';
import type { SafeFetch } from '../core/net/safe-fetch';
import { forEachElement } from './dom-walk';

const MAX_FONT_BYTES = 400 * 1024;
const MAX_PAGE_FONT_BYTES = 1536 * 1024;
const MAX_FONTS = 12;
const FONT_FACE = /@font-face\s*\{[^}]*\}/gi;
const FIRST_URL = /url\(\s*(['"]?)(https?:[^'")\s]+)\1\s*\)/i;
const TYPES: Record<string, string> = { woff2: 'font/woff2', woff: 'font/woff', ttf: 'font/ttf', otf: 'font/otf', eot: 'application/vnd.ms-fontobject' };

export interface FontOptions {
  net: SafeFetch;
  /** Epoch milliseconds: fonts not fetched by then stay links. */
  deadline: number;
}

/**
 * Fonts are written into a snapshot as data: the player shows a snapshot in a frame of Demoshare's origin,
 * and most sites serve their fonts (icon fonts above all, whose glyphs are the icons) without the CORS
 * headers a cross-origin font needs, so linked fonts would fail there. The first source of each
 * `@font-face` rule is fetched through the SSRF guard, within a budget per font and per page; a font that
 * cannot be fetched in time stays a link. Three steps, because reading and rewriting the document is CPU
 * work for the document workers and fetching is the main thread's (the one SSRF-safe client):
 * `fontSources` (worker) → `fetchFonts` (main) → `inlineFonts` (worker).
 */
export function fontSources(css: string): string[] {
  if (!/@font-face/i.test(css)) return [];
  const sources: string[] = [];
  for (const match of css.matchAll(FONT_FACE)) {
    const source = FIRST_URL.exec(match[0]);
    if (source) sources.push(source[2]!);
  }
  return sources;
}

/** The style elements of a document, in document order (where `inlineFonts` looks). */
export function styleElements(doc: Document): Element[] {
  const styles: Element[] = [];
  forEachElement(doc, (el) => {
    if (el.name === 'style') styles.push(el);
    return el.name !== 'style';
  });
  return styles;
}

/** Fetches `urls` in order as data URLs (null: stays a link), until the count, byte or time budget runs out. */
export async function fetchFonts(urls: string[], options: FontOptions): Promise<Map<string, string | null>> {
  const fetched = new Map<string, string | null>();
  let bytes = 0;
  for (const url of urls) {
    if (fetched.has(url)) continue;
    const remaining = options.deadline - Date.now();
    if (fetched.size >= MAX_FONTS || bytes >= MAX_PAGE_FONT_BYTES || remaining < 300) break;
    let data: string | null = null;
    try {
      const res = await options.net.fetch(url, {
        maxRedirects: 3,
        maxBytes: Math.min(MAX_FONT_BYTES, MAX_PAGE_FONT_BYTES - bytes),
        timeoutMs: Math.min(remaining, 5_000),
        headers: { accept: 'font/woff2,font/woff,*/*;q=0.1' },
      });
      if (res.status === 200 && !res.truncated && res.body.length > 0) {
        bytes += res.body.length;
        data = `data:${fontType(url, res.headers['content-type'])};base64,${res.body.toString('base64')}`;
      }
    } catch {
      // A refused or unreachable font stays a link: the snapshot falls back to the page's other fonts.
    }
    fetched.set(url, data);
  }
  return fetched;
}

/** Writes the fetched fonts into the `@font-face` rules of the document's style elements. */
export function inlineFonts(doc: Document, fonts: ReadonlyMap<string, string | null>): void {
  if (fonts.size === 0) return;
  for (const style of styleElements(doc)) {
    const css = textContent(style);
    if (!/@font-face/i.test(css)) continue;
    let out = '';
    let last = 0;
    for (const match of css.matchAll(FONT_FACE)) {
      const rule = match[0];
      const source = FIRST_URL.exec(rule);
      const data = source ? fonts.get(source[2]!) : null;
      out += css.slice(last, match.index) + (source && data ? rule.replace(source[0], `url("${data}")`) : rule);
      last = match.index! + rule.length;
    }
    out += css.slice(last);
    if (out === css) continue;
    style.children = [];
    appendChild(style, new Text(out));
  }
}

function fontType(url: string, header: string | undefined): string {
  const declared = (header ?? '').split(';')[0]!.trim().toLowerCase();
  if (/^(font\/|application\/(font|x-font|vnd\.ms-fontobject))/.test(declared)) return declared;
  const ext = new URL(url).pathname.split('.').pop()?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'font/woff2';
}
