// Obscuring elements of a step's HTML snapshot by CSS selector: text to bullets, pictures emptied, blurred.
import { compile, selectAll } from 'css-select';
import { parse as parseSelector } from 'css-what';
import render from 'dom-serializer';
import { type AnyNode, type ChildNode, type Document, Element, isComment, isTag, isText, Text } from 'domhandler';
import { appendChild, prependChild, removeElement } from 'domutils';
import { parseHtml } from '../generation/html-parse';

/** What hides a character of redacted text. */
export const BULLET = '•';

/**
 * The redaction rule for words: every character that is not white space becomes a bullet, so the text keeps
 * its length and line breaks (the layout holds) and nothing of what it said. Counted in code points: an
 * emoji is one bullet.
 */
export function bullets(text: string): string {
  return text.replace(/\S/gu, BULLET);
}

/** Marks the elements a redaction obscured; the one rule in the head that reaches their pseudo-elements uses it. */
export const REDACTED_ATTRIBUTE = 'data-demoshare-redacted';

/** How a redacted element renders: blurred, on top of its text already being bullets. */
export const REDACTED_STYLE = 'filter: blur(5px) !important; user-select: none !important';
const NO_IMAGES = 'background-image: none !important';
const PSEUDO_RULE =
  `[${REDACTED_ATTRIBUTE}], [${REDACTED_ATTRIBUTE}] *, [${REDACTED_ATTRIBUTE}]::before, [${REDACTED_ATTRIBUTE}]::after, ` +
  `[${REDACTED_ATTRIBUTE}] *::before, [${REDACTED_ATTRIBUTE}] *::after ` +
  '{ background-image: none !important; list-style-image: none !important; border-image-source: none !important; ' +
  'mask-image: none !important; -webkit-mask-image: none !important; }';

/**
 * Attributes a redacted element keeps: those its layout and styling need and that carry no words of the
 * page. Everything else goes (href with a mailto:, title, alt, value, placeholder, aria-*, data-*, src...).
 */
const KEPT_ATTRIBUTES = new Set([
  'class', 'id', 'style', 'type', 'role', 'dir', 'hidden', 'disabled', 'checked', 'selected', 'multiple', 'open',
  'width', 'height', 'colspan', 'rowspan', 'rows', 'cols', 'size', 'viewbox', 'preserveaspectratio', 'xmlns',
]);
/** Elements whose content is a picture or a document of its own: emptied (kept, so their box stays). */
const PICTURES = new Set(['svg', 'picture', 'video', 'audio', 'canvas', 'math']);
/** Elements that have no place in a redacted subtree at all. */
const DROPPED = new Set(['script', 'noscript', 'template', 'iframe', 'frame', 'object', 'embed', 'source', 'track']);
/** Text that is not shown as words: style sheets keep theirs (bullets would only break the page's CSS). */
const RAW_TEXT = new Set(['style']);

/**
 * Why a selector cannot be used for a redaction, or null when it can: it must parse, be one css-select
 * supports (no pseudo-elements, known pseudo-classes), and not end in a combinator.
 */
export function selectorProblem(selector: string): string | null {
  if (selector.trim() === '') return 'is empty';
  if (/[>+~,]\s*$/.test(selector)) return 'is not a complete CSS selector';
  try {
    parseSelector(selector);
    compile(selector);
    return null;
  } catch (err) {
    return `is not a CSS selector this server supports (${err instanceof Error ? err.message : 'unreadable'})`;
  }
}

/** An inline style with its images taken out (url() becomes none) and `extra` declarations after it. */
function restyle(style: string | undefined, extra: string): string {
  const cleaned = (style ?? '').replace(/url\(\s*(?:"[^"]*"|'[^']*'|[^)]*)\s*\)/gi, 'none').trim();
  return cleaned === '' ? extra : `${cleaned.replace(/;\s*$/, '')}; ${extra}`;
}

/**
 * Obscures one element and everything in it, in place: text becomes bullets, attributes that could carry
 * words or addresses go, form values and placeholders go, pictures are emptied and background images
 * switched off, and the element itself renders blurred.
 */
export function redactElement(root: Element): void {
  // A stack of elements rather than of calls: no nesting is too deep for it.
  const pending: Element[] = [root];
  while (pending.length > 0) {
    const el = pending.pop()!;
    for (const name of Object.keys(el.attribs)) {
      if (!KEPT_ATTRIBUTES.has(name.toLowerCase())) delete el.attribs[name];
    }
    el.attribs.style = restyle(el.attribs.style, NO_IMAGES);
    const name = el.name.toLowerCase();
    // A textarea's value is its text: removed, as an input's value attribute is.
    if (PICTURES.has(name) || name === 'textarea') {
      for (const child of [...el.children]) removeElement(child);
      continue;
    }
    for (const child of [...el.children] as ChildNode[]) {
      if (isTag(child)) {
        if (DROPPED.has(child.name.toLowerCase())) removeElement(child);
        else pending.push(child);
      } else if (isText(child)) {
        if (!RAW_TEXT.has(name)) child.data = bullets(child.data);
      } else if (isComment(child)) {
        removeElement(child);
      }
    }
  }
  root.attribs.style = `${root.attribs.style}; ${REDACTED_STYLE}`;
  root.attribs[REDACTED_ATTRIBUTE] = '';
}

/** The rule that switches off images drawn by pseudo-elements of redacted elements, once per document. */
function addPseudoRule(doc: Document): void {
  const present = selectAll<AnyNode, Element>(`style[${REDACTED_ATTRIBUTE}]`, doc).length > 0;
  if (present) return;
  const style = new Element('style', { [REDACTED_ATTRIBUTE]: '' }, [new Text(PSEUDO_RULE)]);
  const head = selectAll<AnyNode, Element>('head', doc)[0];
  if (head) appendChild(head, style);
  else prependChild(doc, style);
}

export interface SnapshotRedaction {
  /** The snapshot with the matched elements obscured. */
  html: string;
  /** How many elements each selector matched, in the order given. */
  matches: number[];
}

/**
 * Obscures every element the selectors match (see `redactElement`) in an HTML snapshot. Selectors that
 * match nothing are reported in `matches` (0), not thrown: the caller decides. Check selectors with
 * `selectorProblem` first; an invalid one throws here, as does a snapshot nested too deep
 * (NestingTooDeepError). CPU-heavy: runs in the document workers (src/document-tasks.ts).
 */
export function redactSnapshot(html: string, selectors: string[]): SnapshotRedaction {
  const doc = parseHtml(html);
  const matched = new Set<Element>();
  const matches = selectors.map((selector) => {
    const found = selectAll<AnyNode, Element>(selector, doc);
    for (const el of found) matched.add(el);
    return found.length;
  });
  // Only the outermost of nested matches: the inner ones are redacted with them (and not blurred twice).
  const inside = (el: Element) => {
    for (let p = el.parent; p && isTag(p); p = p.parent) if (matched.has(p)) return true;
    return false;
  };
  const roots = [...matched].filter((el) => !inside(el));
  for (const el of roots) redactElement(el);
  if (roots.length > 0) addPseudoRule(doc);
  return { html: render(doc, { encodeEntities: 'utf8' }), matches };
}

/**
 * The port through which redactions run {@link redactSnapshot}: in the document workers (demos.module.ts
 * wires it to `kernel.documents`), so parsing a large snapshot never holds the event loop.
 *
 * @example
 * ```ts
 * const redactHtml: RedactHtml = (html, selectors) =>
 *   kernel.documents.run('redactSnapshot', [html, selectors], { field: 'selectors', what: 'The step’s snapshot' });
 * const { html: blurred, matches } = await redactHtml('<p class="email">a@example.com</p>', ['.email']);
 * ```
 */
export type RedactHtml = (html: string, selectors: string[]) => Promise<SnapshotRedaction>;
