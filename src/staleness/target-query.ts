// Finds hotspot targets in a snapshot by their selectors (document worker task): whether each is there, and the text a person reads on it.
import * as CSSselect from 'css-select';
import type { Element } from 'domhandler';
import { textContent } from 'domutils';
import { parseHtml } from '../generation/html-parse';

/** What a selector finds in a snapshot: nothing, or an element and its words. */
export interface TargetFound {
  found: boolean;
  text: string | null;
  /** The index in `known` of a selector that finds the same element (whose box the capture measured), if any. */
  same?: number | null;
}

/** A password field: the sign of a sign-in form where the page used to be. */
export const PASSWORD_FIELD = 'input[type=password i]';
const MAX_TEXT = 500;

/**
 * Looks each selector up in `html` (the first element it matches), as the player finds a hotspot's target.
 * A selector that does not parse finds nothing. Runs in the document workers (src/document-tasks.ts).
 *
 * @example
 * queryTargets('<h1 id="t">Hello <b>you</b></h1>', ['#t', '#gone']); // [{ found: true, text: 'Hello you', same: null }, { found: false, text: null }]
 * queryTargets(html, ['main > h1'], ['#title']); // [{ found: true, text: 'Welcome', same: 0 }]: the capture's `#title` is that element
 */
export function queryTargets(html: string, selectors: string[], known: string[] = []): TargetFound[] {
  const doc = parseHtml(html);
  const find = (selector: string) => {
    try {
      return CSSselect.selectOne(selector, doc) as Element | null;
    } catch {
      return null;
    }
  };
  let knownNodes: Map<Element, number> | null = null;
  const indexOf = (node: Element) => {
    knownNodes ??= new Map(known.flatMap((s, i) => {
      const n = find(s);
      return n ? [[n, i] as const] : [];
    }));
    return knownNodes.get(node) ?? null;
  };
  return selectors.map((selector) => {
    const node = find(selector);
    return node ? { found: true, text: wordsOf(node), same: known.length > 0 ? indexOf(node) : null } : { found: false, text: null };
  });
}

/** The words a person reads on an element: its text, else its label, placeholder, alt text or value. */
function wordsOf(node: Element): string {
  const own = normaliseText(textContent(node));
  const attrs = node.attribs ?? {};
  const words = own || attrs['aria-label'] || attrs.placeholder || attrs.alt || attrs.value || attrs.title || '';
  return normaliseText(words).slice(0, MAX_TEXT);
}

/** Whitespace collapsed and trimmed: two texts that read the same compare equal. */
export function normaliseText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
