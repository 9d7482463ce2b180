import render from 'dom-serializer';
import { Element as DomElement, type Document, type Element, Text } from 'domhandler';
import { appendChild, replaceElement, textContent } from 'domutils';
import { findFirst, forEachElement } from './dom-walk';
import { fontSources, inlineFonts } from './font-inliner';
import { type ElementLayout, extractFacts, type PageFacts } from './html-elements';
import { readSections } from './section-text';
import { parseHtml } from './html-parse';
import { absolutizeCss, cssForStyleElement, sanitizeDocument } from './sanitize';

/**
 * The CPU-heavy steps of a snapshot, run in the document workers (src/document-tasks.ts); snapshot.ts runs
 * them in turn and fetches, between them, what they name. Between steps the document travels as HTML,
 * its stylesheet links marked with their number.
 */

export const LAYOUT_ATTRIBUTE = 'data-ds-n';
const SHEET_ATTRIBUTE = 'data-ds-sheet';

export interface Snapshot extends PageFacts {
  html: string;
}

/** Where fonts are looked for, in document order: a style element's font sources, or stylesheet link n. */
export type StyleSource = { fonts: string[] } | { sheet: number };

export interface PreparedSnapshot {
  /** Sanitised, stylesheet links marked. */
  html: string;
  /** The stylesheet links' addresses, by their number. */
  stylesheets: string[];
  styles: StyleSource[];
}

/** A fetched stylesheet, made ready to be a style element: addresses absolute, nothing that closes the element. */
export interface PreparedSheet {
  css: string;
  fonts: string[];
}

export interface SnapshotInputs {
  /** Each stylesheet link's CSS by number, or null to leave the link. */
  sheets: Array<string | null>;
  /** Font sources fetched as data URLs (null: left a link). */
  fonts: Array<[string, string | null]>;
  /** Chromium mode: layout by the number the in-page probe stamped (`data-ds-n`). */
  layout?: Array<[number, ElementLayout]>;
}

/** Step 1: parse (nesting limited), sanitise, and name the stylesheets and fonts to fetch. */
export function prepareSnapshot(html: string, pageUrl: string, mayReach: (url: string) => boolean): PreparedSnapshot {
  const doc = parseHtml(html);
  const { stylesheets } = sanitizeDocument(doc, pageUrl, mayReach);
  stylesheets.forEach((link, i) => {
    link.attribs[SHEET_ATTRIBUTE] = String(i);
  });
  const styles: StyleSource[] = [];
  forEachElement(doc, (el) => {
    if (el.name === 'style') styles.push({ fonts: fontSources(textContent(el)) });
    else if (el.attribs[SHEET_ATTRIBUTE] !== undefined) styles.push({ sheet: Number(el.attribs[SHEET_ATTRIBUTE]) });
    return el.name !== 'style';
  });
  return { html: render(doc, { encodeEntities: 'utf8' }), stylesheets: stylesheets.map((link) => link.attribs.href!), styles };
}

/** Step 2: the fetched stylesheets, each against its own address. */
export function prepareSheets(sheets: Array<{ css: string; url: string }>, mayReach: (url: string) => boolean): PreparedSheet[] {
  return sheets.map(({ css, url }) => {
    const ready = cssForStyleElement(absolutizeCss(css, url, mayReach));
    return { css: ready, fonts: fontSources(ready) };
  });
}

/** Step 3: stylesheets and fonts written in, scroll-revealed blocks shown, facts read, serialised. */
export function finishSnapshot(html: string, pageUrl: string, inputs: SnapshotInputs): Snapshot {
  const doc = parseHtml(html);
  const known = inputs.layout ? new Map(inputs.layout) : undefined;
  const layout = new Map<Element, ElementLayout>();
  const links: Element[] = [];
  forEachElement(doc, (el) => {
    if (el.attribs[SHEET_ATTRIBUTE] !== undefined) links.push(el);
    const n = el.attribs[LAYOUT_ATTRIBUTE];
    if (known && n !== undefined) {
      const box = known.get(Number(n));
      if (box) layout.set(el, box);
      delete el.attribs[LAYOUT_ATTRIBUTE];
    }
    return true;
  });
  for (const link of links) {
    const css = inputs.sheets[Number(link.attribs[SHEET_ATTRIBUTE])];
    delete link.attribs[SHEET_ATTRIBUTE];
    if (css === null || css === undefined) continue;
    const style = new DomElement('style', link.attribs.media ? { media: link.attribs.media } : {});
    appendChild(style, new Text(css));
    replaceElement(link, style);
  }
  inlineFonts(doc, new Map(inputs.fonts));
  showRevealedOnScroll(doc);
  const facts = readSections(doc, extractFacts(doc, pageUrl, known ? layout : undefined), known ? layout : undefined);
  return { ...facts, html: render(doc, { encodeEntities: 'utf8' }) };
}

/**
 * Blocks that sites reveal when scrolled into view (AOS, Webflow interactions, WOW, "reveal" classes) start
 * transparent and wait for a script the snapshot does not run: the player shows them as they end up.
 */
const REVEALED =
  '[data-aos], [data-w-id][style*="opacity:0"], [data-w-id][style*="opacity: 0"], [data-sal], [data-scroll], .wow, .reveal, .aos-init, .animate-on-scroll { opacity: 1 !important; transform: none !important; visibility: visible !important; }';

function showRevealedOnScroll(doc: Document): void {
  const head = findFirst(doc, 'head');
  if (head) appendChild(head, new DomElement('style', { 'data-demoshare': 'shown' }, [new Text(REVEALED)]));
}
