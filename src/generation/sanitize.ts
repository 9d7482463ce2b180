import { type ChildNode, type Document, Element, isTag, isText, type ParentNode, Text } from 'domhandler';
import render from 'dom-serializer';
import { appendChild, getAttributeValue, prependChild, removeElement, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { findFirst, forEachElement } from './dom-walk';
import { cleanDeclarations, cleanStylesheet, cleanValue } from './snapshot-css';

/**
 * Turns a parsed page into a snapshot the player can show in a sandboxed frame: nothing that runs
 * (scripts, event handlers, javascript: URLs, frames, plugins, meta refresh, SVG animations that
 * rewrite links), nothing that reaches elsewhere on its own (base, preload/prefetch links, ping), and
 * every URL made absolute so the snapshot renders away from its origin. The sandbox (no allow-scripts)
 * is the guarantee; this and the CSP added to the head are the layers under it.
 */
export function sanitizeDocument(
  doc: Document,
  pageUrl: string,
  mayReach: (url: string) => boolean = () => true,
): { baseUrl: string; stylesheets: Element[]; mayReach: (url: string) => boolean } {
  const baseUrl = documentBase(doc, pageUrl);
  const stylesheets: Element[] = [];
  prune(doc, (el) => {
    if (!keepElement(el)) return false;
    cleanAttributes(el, baseUrl, mayReach);
    if (el.name === 'link') {
      if (!el.attribs.href) return false;
      stylesheets.push(el);
    }
    if (el.name === 'style' && !rewriteStyleText(el, baseUrl, mayReach)) return false;
    return true;
  });
  removeNonContent(doc);
  addPolicy(doc);
  return { baseUrl, stylesheets, mayReach };
}

/** The CSP a snapshot carries in its head: styles, images and fonts load, nothing else does. */
export const SNAPSHOT_CSP =
  "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline' http: https:; font-src http: https: data:; media-src http: https:; form-action 'none'; base-uri 'none'";

const DROPPED = new Set([
  'script', 'noscript', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'param', 'base', 'portal',
  'template', 'audio', 'video', 'track', 'dialog',
  // Raw-text elements whose content the serialiser writes back unescaped.
  'xmp', 'noembed', 'noframes', 'plaintext',
  // SVG animation elements can set an href to javascript: after sanitising; a snapshot needs no animation.
  'set', 'animate', 'animatemotion', 'animatetransform', 'handler', 'listener',
]);

const URL_ATTRIBUTES = new Set(['href', 'src', 'srcset', 'imagesrcset', 'poster', 'cite', 'background', 'xlink:href', 'longdesc']);
/** SVG presentation attributes: read as CSS property values, and these properties take url(). */
const CSS_URL_ATTRIBUTES = new Set(['fill', 'stroke', 'filter', 'mask', 'clip-path', 'marker-start', 'marker-mid', 'marker-end', 'cursor']);
const DROPPED_ATTRIBUTES = new Set([
  'srcdoc', 'formaction', 'action', 'ping', 'target', 'http-equiv', 'nonce', 'integrity', 'manifest', 'autofocus',
  'data', 'codebase', 'archive', 'classid',
]);

function keepElement(el: Element): boolean {
  const name = el.name.toLowerCase();
  if (DROPPED.has(name)) return false;
  if (name === 'meta') {
    const meta = (getAttributeValue(el, 'name') ?? '').toLowerCase();
    return el.attribs.charset !== undefined || meta === 'description' || meta === 'viewport';
  }
  if (name === 'link') {
    const rel = (getAttributeValue(el, 'rel') ?? '').toLowerCase().split(/\s+/);
    return rel.includes('stylesheet') && !rel.includes('alternate');
  }
  // Hidden inputs carry CSRF tokens and tracking ids, never anything a viewer sees.
  if (name === 'input' && (getAttributeValue(el, 'type') ?? '').toLowerCase() === 'hidden') return false;
  return true;
}

/**
 * `mayReach` is the SSRF guard's syntax check: a snapshot keeps no address the guard refuses on sight
 * (private and metadata IP literals), so a viewer's browser is not sent there either.
 */
function cleanAttributes(el: Element, baseUrl: string, mayReach: (url: string) => boolean): void {
  for (const [raw, value] of Object.entries(el.attribs)) {
    const name = raw.toLowerCase();
    if (name.startsWith('on') || DROPPED_ATTRIBUTES.has(name)) {
      delete el.attribs[raw];
    } else if (URL_ATTRIBUTES.has(name)) {
      const safe = name === 'srcset' || name === 'imagesrcset' ? safeSrcset(value, baseUrl, mayReach) : safeUrl(value, baseUrl, name);
      if (safe === null || (/^https?:/.test(safe) && !mayReach(safe))) delete el.attribs[raw];
      else el.attribs[raw] = safe;
    } else if (name === 'style') {
      const css = cleanDeclarations(value, baseUrl, mayReach);
      if (css === '') delete el.attribs[raw];
      else el.attribs[raw] = css;
    } else if (CSS_URL_ATTRIBUTES.has(name)) {
      const css = cleanValue(value, baseUrl, mayReach);
      if (css === null) delete el.attribs[raw];
      else el.attribs[raw] = css;
    }
  }
}

/** An absolute http(s) URL (or mailto/tel for links, an image data URL for sources), or null to drop it. */
export function safeUrl(value: string, baseUrl: string, attribute = 'href'): string | null {
  const trimmed = value.trim();
  if (trimmed.startsWith('#')) return trimmed;
  let url: URL;
  try {
    url = new URL(trimmed, baseUrl);
  } catch {
    return null;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  if ((url.protocol === 'mailto:' || url.protocol === 'tel:') && attribute === 'href') return url.toString();
  if (url.protocol === 'data:' && attribute === 'src' && /^data:image\/(png|jpe?g|gif|webp|avif|svg\+xml)[;,]/i.test(trimmed)) {
    return trimmed;
  }
  return null;
}

function safeSrcset(value: string, baseUrl: string, mayReach: (url: string) => boolean): string | null {
  const candidates = value
    .split(/,\s+/)
    .map((candidate) => {
      const [url, ...descriptor] = candidate.trim().split(/\s+/);
      const safe = url ? safeUrl(url, baseUrl, 'src') : null;
      return safe && !safe.startsWith('#') && mayReach(safe) ? [safe, ...descriptor].join(' ') : null;
    })
    .filter((c): c is string => c !== null);
  return candidates.length > 0 ? candidates.join(', ') : null;
}

/**
 * A stylesheet as a snapshot may keep it, its addresses absolute against the stylesheet's own address
 * and judged by `mayReach` once a CSS tokenizer has read them (src/generation/snapshot-css.ts).
 */
export function absolutizeCss(css: string, baseUrl: string, mayReach: (url: string) => boolean = () => true): string {
  return cleanStylesheet(css, baseUrl, mayReach);
}

/**
 * CSS placed inside a style element must not be able to close it, nor read as markup where a browser
 * parses a style element's content as elements (MathML/SVG, the classic mutation-XSS route). `<` only
 * means something in CSS inside strings, where its escape means the same.
 */
export function cssForStyleElement(css: string): string {
  return css.replace(/</g, '\\3c ');
}

/**
 * One text, cleaned whole: pieces cleaned one by one could join into a url the check never saw. False
 * when nothing is left, and the element goes: an empty one inside SVG is written `<style/>`, which a
 * browser that reads it as HTML takes as the start of a style element holding the rest of the page.
 */
function rewriteStyleText(el: Element, baseUrl: string, mayReach: (url: string) => boolean): boolean {
  const css = el.children.map((child) => (isText(child) ? child.data : '')).join('');
  for (const child of [...el.children]) removeElement(child);
  const clean = cssForStyleElement(absolutizeCss(css, baseUrl, mayReach));
  if (clean === '' || !readsAsWritten(el, clean)) return false;
  appendChild(el, new Text(clean));
  return true;
}

/**
 * A style element's text is raw in HTML, but markup in SVG and MathML: there dom-serializer writes
 * `&"'<>` as character references and a browser decodes them. htmlparser2 and the viewer's browser can
 * disagree about which of the two an element is in (`<svg></p><style>` is SVG to one, HTML to the
 * other), so the cleaned text is kept only if it reads the same either way.
 */
function readsAsWritten(el: Element, css: string): boolean {
  for (let p = el.parent; p && isTag(p); p = p.parent) {
    if (p.name === 'svg' || p.name === 'math') {
      const written = render(new Element('svg', {}, [new Element('style', {}, [new Text(css)])]), { encodeEntities: 'utf8' });
      return written === `<svg><style>${css}</style></svg>`;
    }
  }
  return textContent(parseDocument(`<p>${css}`)) === css;
}

function documentBase(doc: Document, pageUrl: string): string {
  let base = pageUrl;
  forEachElement(doc, (el) => {
    if (el.name === 'base' && el.attribs.href && base === pageUrl) {
      const resolved = safeUrl(el.attribs.href, pageUrl);
      if (resolved && !resolved.startsWith('#') && /^https?:/.test(resolved)) base = resolved;
    }
    return true;
  });
  return base;
}

/** Comments, processing instructions and CDATA carry nothing a viewer sees (and old IE ran some). */
function removeNonContent(node: ParentNode): void {
  // A stack of nodes rather than of calls, as in dom-walk.ts: no depth overflows it.
  const pending: ChildNode[] = [...node.children].reverse();
  while (pending.length > 0) {
    const child = pending.pop()!;
    if (child.type === 'comment' || child.type === 'cdata' || (child.type === 'directive' && !/^!doctype/i.test(child.data))) {
      removeElement(child);
    } else if ('children' in child) {
      for (let i = child.children.length - 1; i >= 0; i--) pending.push(child.children[i]!);
    }
  }
}

function addPolicy(doc: Document): void {
  const head = findFirst(doc, 'head');
  if (head) prependChild(head, new Element('meta', { 'http-equiv': 'Content-Security-Policy', content: SNAPSHOT_CSP }));
}

/** Depth-first over elements; `visit` returning false removes the element with its subtree. Iterative, as in dom-walk.ts. */
export function prune(node: ParentNode, visit: (el: Element) => boolean): void {
  const pending: ChildNode[] = [...node.children].reverse();
  while (pending.length > 0) {
    const child = pending.pop()!;
    if (!isTag(child)) continue;
    if (!visit(child)) {
      removeElement(child);
      continue;
    }
    for (let i = child.children.length - 1; i >= 0; i--) pending.push(child.children[i]!);
  }
}
