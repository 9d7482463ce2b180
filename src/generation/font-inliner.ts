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
 * Writes the fonts of a snapshot's `@font-face` rules into it as data: the player shows a snapshot in a
 * frame of Demoshare's origin, and most sites serve their fonts (icon fonts above all, whose glyphs are
 * the icons) without the CORS headers a cross-origin font needs, so linked fonts would fail there. The
 * first source of each rule is fetched through the SSRF guard, within a budget per font and per page; a
 * font that cannot be fetched in time stays a link.
 */
export async function inlineFonts(doc: Document, options: FontOptions): Promise<void> {
  const styles: Element[] = [];
  forEachElement(doc, (el) => {
    if (el.name === 'style') styles.push(el);
    return el.name !== 'style';
  });
  const fetched = new Map<string, string | null>();
  let bytes = 0;
  const dataFor = async (url: string): Promise<string | null> => {
    if (fetched.has(url)) return fetched.get(url)!;
    const remaining = options.deadline - Date.now();
    if (fetched.size >= MAX_FONTS || bytes >= MAX_PAGE_FONT_BYTES || remaining < 300) return null;
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
    return data;
  };

  for (const style of styles) {
    const css = textContent(style);
    if (!/@font-face/i.test(css)) continue;
    let out = '';
    let last = 0;
    for (const match of css.matchAll(FONT_FACE)) {
      const rule = match[0];
      const source = FIRST_URL.exec(rule);
      const data = source ? await dataFor(source[2]!) : null;
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
