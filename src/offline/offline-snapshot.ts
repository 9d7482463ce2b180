// An HTML snapshot made fit for a file that plays with no network: patches applied, nothing left that would fetch.
import render from 'dom-serializer';
import { type AnyNode, type Element, isTag, Text } from 'domhandler';
import { removeElement } from 'domutils';
import { applyPagePatches } from '../demos/apply-page-patches';
import type { PagePatch } from '../demos/story.schemas';
import { parseHtml } from '../generation/html-parse';

/** A transparent 1×1 GIF: an image whose source is dropped keeps its box (width and height attributes, CSS). */
export const BLANK_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** Addresses a browser resolves without a request: what an offline document may keep. */
const LOCAL = /^\s*(data:|#|about:blank\b)/i;

/** Attributes that load something, by element (srcset and the like are dropped whole: they only ever name files). */
const SOURCE_ATTRIBUTES: Record<string, string[]> = {
  img: ['src'],
  input: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  source: ['src'],
  track: ['src'],
  embed: ['src'],
  iframe: ['src'],
  frame: ['src'],
  object: ['data'],
  image: ['href', 'xlink:href'],
  use: ['href', 'xlink:href'],
  feimage: ['href', 'xlink:href'],
  script: ['src'],
};
const DROPPED_ATTRIBUTES = ['srcset', 'imagesrcset', 'background', 'ping', 'lowsrc', 'longdesc', 'codebase', 'archive', 'manifest'];
/** Elements that only fetch or redirect: removed whole. */
const FETCHING_ELEMENTS = new Set(['script', 'base', 'link', 'noscript', 'portal']);

export interface OfflineSnapshotFacts {
  /** References that would have fetched something (pictures, style sheets, fonts of the captured site): dropped. */
  dropped: number;
  /** Pictures of the captured site written in as the data: URLs given (`inlined`). */
  inlined: number;
}

/** Pictures fetched at export time, by their absolute address: written in instead of dropped. */
export type InlinedPictures = Readonly<Record<string, string>>;

const NONE: InlinedPictures = {};

/**
 * CSS with every `url(...)` that is not a data: URL replaced by `none` and every `@import` of a file removed:
 * the styles inlined at capture stay, what they would have fetched goes.
 */
export function offlineCss(css: string, facts: OfflineSnapshotFacts = { dropped: 0, inlined: 0 }, inlined: InlinedPictures = NONE): string {
  const imports = css.replace(/@import\s+(?:url\(\s*)?(?:"[^"]*"|'[^']*'|[^;'"\s)]+)\s*\)?[^;]*;?/gi, (rule) => {
    if (/@import\s+(?:url\(\s*)?["']?data:/i.test(rule)) return rule;
    facts.dropped++;
    return '';
  });
  return imports.replace(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"]*))\s*\)/gi, (whole, a?: string, b?: string, c?: string) => {
    const target = (a ?? b ?? c ?? '').trim();
    if (LOCAL.test(target)) return whole;
    const data = inlined[target];
    if (data) {
      facts.inlined++;
      return `url("${data}")`;
    }
    facts.dropped++;
    return 'none';
  });
}

function clean(el: Element, facts: OfflineSnapshotFacts, inlined: InlinedPictures): boolean {
  const name = el.name.toLowerCase();
  if (FETCHING_ELEMENTS.has(name)) return false;
  if (name === 'meta' && (el.attribs['http-equiv'] ?? '').toLowerCase() === 'refresh') return false;
  for (const attr of DROPPED_ATTRIBUTES) {
    if (el.attribs[attr] !== undefined) {
      if (!LOCAL.test(el.attribs[attr] ?? '')) facts.dropped++;
      delete el.attribs[attr];
    }
  }
  for (const attr of SOURCE_ATTRIBUTES[name] ?? []) {
    const value = el.attribs[attr];
    if (value === undefined || LOCAL.test(value)) continue;
    const data = name === 'img' || name === 'input' || (name === 'video' && attr === 'poster') ? inlined[value.trim()] : undefined;
    if (data) {
      el.attribs[attr] = data;
      facts.inlined++;
      continue;
    }
    facts.dropped++;
    if (name === 'img' || name === 'input') el.attribs[attr] = BLANK_IMAGE;
    else delete el.attribs[attr];
  }
  // A <picture>'s <source> without its srcset says nothing: the <img> decides.
  if (name === 'source' && el.attribs.srcset === undefined && el.attribs.src === undefined) return false;
  if (el.attribs.style !== undefined) el.attribs.style = offlineCss(el.attribs.style, facts, inlined);
  if (name === 'style') {
    for (const child of el.children) if (child instanceof Text) child.data = offlineCss(child.data, facts, inlined);
  }
  return true;
}

function walk(nodes: AnyNode[], facts: OfflineSnapshotFacts, inlined: InlinedPictures) {
  for (const node of [...nodes]) {
    if (!isTag(node)) continue;
    if (!clean(node, facts, inlined)) {
      if (node.name !== 'noscript' && node.name !== 'source') facts.dropped++;
      removeElement(node);
      continue;
    }
    walk(node.children, facts, inlined);
  }
}

/**
 * A step's snapshot as an offline file carries it: its page patches applied (`image` patches point at the
 * data: URLs of `imageUrls`), then every reference that would fetch something removed — scripts, `<link>`s
 * (style sheets, icons, preloads), `<base>`, refresh, the sources of pictures, frames and media (a picture
 * keeps its box through a blank image), `srcset`s, CSS `url()`s and `@import`s that are not data: URLs. The
 * styles inlined at capture and the text stay, so the page reads as captured; the captured site's own
 * pictures are not fetched (see docs/offline.md). CPU-heavy: runs in the document workers.
 */
export function offlineSnapshot(
  html: string,
  patches: PagePatch[],
  imageUrls: Readonly<Record<string, string>>,
  inlined: InlinedPictures = NONE,
): { html: string; facts: OfflineSnapshotFacts } {
  const patched = patches.length > 0 ? applyPagePatches(html, patches, imageUrls).html : html;
  const doc = parseHtml(patched);
  const facts: OfflineSnapshotFacts = { dropped: 0, inlined: 0 };
  walk(doc.children, facts, inlined);
  return { html: render(doc, { encodeEntities: 'utf8' }), facts };
}

const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"]*))\s*\)/gi;

/**
 * The pictures a snapshot shows from its site, by absolute http(s) address: `<img>` and image inputs'
 * sources, video posters and CSS `url()`s (style attributes and `<style>`; fonts were inlined at capture),
 * in document order, each once, at most `max`. What an export may fetch to write them in
 * (offline.service.ts). CPU-heavy: runs in the document workers.
 */
export function pictureReferences(htmls: string[], max: number): string[] {
  const found = new Set<string>();
  const add = (raw: string | undefined) => {
    const url = raw?.trim();
    if (url && found.size < max && /^https?:\/\//i.test(url)) found.add(url);
  };
  const fromCss = (css: string) => {
    for (const m of css.matchAll(CSS_URL)) add(m[1] ?? m[2] ?? m[3]);
  };
  const visit = (nodes: AnyNode[]) => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      const name = node.name.toLowerCase();
      if (name === 'img' || name === 'input') add(node.attribs.src);
      if (name === 'video') add(node.attribs.poster);
      if (node.attribs.style) fromCss(node.attribs.style);
      if (name === 'style') for (const child of node.children) if (child instanceof Text) fromCss(child.data);
      visit(node.children);
    }
  };
  for (const html of htmls) visit(parseHtml(html).children);
  return [...found];
}
