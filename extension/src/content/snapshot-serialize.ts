/**
 * The asynchronous half of a DOM snapshot: turns what freezeDocument (snapshot.ts) captured into one
 * self-contained HTML document. Stylesheets are written from their rules (cross-origin ones fetched
 * first), which tells which fonts and images the page needs; those are fetched within a budget; then the
 * clone is edited, once and synchronously, into the final HTML.
 */
import { type CapturedSheet, type CssContext, type CssScope, FRAME_RESET_CSS, prefetchStylesheets, resolveUrl, sheetToCss } from './snapshot-css';
import {
  type FetchResource,
  type Frozen,
  type FrozenFrame,
  type Progress,
  SCROLL_ATTRIBUTE,
  type SerializedSnapshot,
  type SerializeOptions,
  type SnapshotStats,
  URL_ATTRIBUTE,
  VIEWPORT_ATTRIBUTE,
} from './snapshot-model';

interface WantedResource {
  kind: 'image' | 'font';
  priority: number;
  order: number;
}

type Wanted = Map<string, WantedResource>;

const DEFAULTS = {
  maxResourceBytes: 2 * 1024 * 1024,
  maxTotalBytes: 10 * 1024 * 1024,
  maxImportDepth: 4,
  concurrency: 6,
  resourceTimeoutMs: 10_000,
};
type Limits = typeof DEFAULTS;

/**
 * Turns a frozen page into one self-contained HTML document: cross-origin stylesheets fetched, then
 * every stylesheet written as text (which tells which fonts and images it needs), those fetched, and
 * the HTML assembled. Consumes `frozen`; a second call returns the same result.
 */
export async function serializeFrozen(frozen: Frozen, options: SerializeOptions): Promise<SerializedSnapshot> {
  const progress = frozen.progress;
  if (progress.result) return progress.result;
  const started = performance.now();
  const limits: Limits = { ...DEFAULTS, ...definedOnly(options) };
  // A fetch that throws, never answers, or is not a function at all fails that one resource, never the
  // snapshot.
  const fetchResource: FetchResource = (url, kind) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), limits.resourceTimeoutMs);
      Promise.resolve()
        .then(() => options.fetchResource(url, kind))
        .then(resolve, () => resolve(null))
        .finally(() => clearTimeout(timer));
    });
  const fetchCss = async (url: string) => {
    const res = await fetchResource(url, 'css');
    return typeof res?.text === 'string' ? { url: res.url || url, text: res.text } : null;
  };
  await prefetchStylesheets(allSheets(frozen), progress.sheets, fetchCss, limits.maxImportDepth);
  if (progress.result) return progress.result; // the fallback was taken meanwhile
  const wanted: Wanted = new Map();
  const plan = planDocument(frozen, { kind: 'document' }, progress, wanted, limits);
  await fetchResources(wanted, progress, fetchResource, limits);
  if (progress.result) return progress.result;
  return assemble(frozen, plan, progress, limits, { started, resources: wanted.size, fallback: false });
}

/** The snapshot now, synchronously, with what has been fetched so far (cross-origin stylesheets not yet
 * fetched stay `<link>`s, images and fonts not yet fetched stay URLs): for a page that is going away. */
export function fallbackHtml(frozen: Frozen): string {
  const progress = frozen.progress;
  if (!progress.result) {
    const wanted: Wanted = new Map();
    const plan = planDocument(frozen, { kind: 'document' }, progress, wanted, DEFAULTS);
    assemble(frozen, plan, progress, DEFAULTS, { started: performance.now(), resources: wanted.size, fallback: true });
  }
  return progress.result!.html;
}

function definedOnly(options: SerializeOptions): Partial<Limits> {
  return Object.fromEntries(Object.entries(options).filter(([key, value]) => key in DEFAULTS && typeof value === 'number'));
}

function allSheets(frozen: Frozen): CapturedSheet[] {
  return [
    ...frozen.sheets.map((s) => s.sheet),
    ...frozen.shadows.flatMap((s) => s.sheets),
    ...frozen.frames.flatMap((f) => (f.document ? allSheets(f.document) : [])),
  ];
}

/** What one document (the page, or a frame in it) will get, worked out without touching its clone. */
interface DocumentPlan {
  frozen: Frozen;
  scope: CssScope;
  /** Each stylesheet's text, or null for a cross-origin one not fetched (kept as a link in a document). */
  sheets: { owner: Element | null; css: string | null; href: string | null }[];
  shadowCss: string;
  frames: { frame: FrozenFrame; plan: DocumentPlan }[];
}

/**
 * Writes every stylesheet's text and registers every image and font the document needs, most useful
 * first: fonts the page had loaded (0), `<img>`s, posters and inline styles (1), other fonts (2), and
 * images named in stylesheets (3), many of which are for states and pages not on screen.
 */
function planDocument(frozen: Frozen, scope: CssScope, progress: Progress, wanted: Wanted, limits: Limits): DocumentPlan {
  const addResource = ({ url, kind, priority }: { url: string; kind: 'image' | 'font'; priority: number }) =>
    want(wanted, url, kind, priority);
  const isUsed = usedIn(frozen.root);
  const ctx = (cssScope: CssScope): CssContext => ({
    scope: cssScope,
    sheets: progress.sheets,
    addResource,
    loadedFonts: frozen.loadedFonts,
    maxImportDepth: limits.maxImportDepth,
    // A shadow root's selectors (:host, ::slotted) cannot be tried on the flattened tree as they are.
    isUsed: cssScope.kind === 'shadow' ? undefined : isUsed,
    matchesMedia: frozen.matchesMedia,
  });
  const documentCtx = ctx(scope);
  const sheets = frozen.sheets.map(({ sheet, owner }) => ({ owner, css: sheetToCss(sheet, documentCtx), href: sheet.href }));
  let shadowCss = '';
  for (const shadow of frozen.shadows) {
    const shadowCtx = ctx({ kind: 'shadow', id: shadow.id });
    for (const sheet of shadow.sheets) shadowCss += sheetToCss(sheet, shadowCtx) ?? '';
  }
  for (const image of frozen.images) want(wanted, image.url, 'image', 1);
  for (const canvas of frozen.canvases) {
    const poster = canvas.fallbackUrl ? resolveUrl(canvas.fallbackUrl, frozen.baseUrl) : null;
    if (poster && !canvas.copy) want(wanted, poster, 'image', 1);
  }
  for (const el of frozen.root.querySelectorAll('[style*="url(" i], image')) {
    for (const url of elementImageUrls(el, frozen.baseUrl)) want(wanted, url, 'image', 1);
  }
  for (const { file } of externalUses(frozen)) want(wanted, file, 'image', 1);
  const frames = frozen.frames
    .filter((frame) => frame.document)
    .map((frame) => ({ frame, plan: planDocument(frame.document!, { kind: 'frame', id: frame.id }, progress, wanted, limits) }));
  return { frozen, scope, sheets, shadowCss, frames };
}

/**
 * Whether a selector matches an element of the clone, ignoring the states and pseudo-elements a
 * detached clone cannot be in or have (:hover, ::before…), which the page may well show. An invalid or
 * unknown selector counts as used.
 */
function usedIn(root: Element): (selector: string) => boolean {
  const known = new Map<string, boolean>();
  return (selector) => {
    let used = known.get(selector);
    if (used === undefined) {
      // A compound that was only a state (`.menu :hover`) becomes `*`, not nothing.
      const stateless = selector.replace(STATES, (_state, at: number, whole: string) => (/[\s>+~,(]/.test(whole[at - 1] ?? ' ') ? '*' : ''));
      try {
        used = root.matches(stateless) || root.querySelector(stateless) !== null;
      } catch {
        used = true;
      }
      known.set(selector, used);
    }
    return used;
  };
}

const STATES =
  /::?(?:before|after|placeholder|marker|selection|first-line|first-letter|backdrop|file-selector-button|-webkit-[\w-]+|-moz-[\w-]+)|:(?:hover|focus|focus-visible|focus-within|active|visited|target|target-within|popover-open|modal|fullscreen|autofill|user-invalid|user-valid)(?![\w-])/gi;

function want(wanted: Wanted, url: string, kind: 'image' | 'font', priority: number): void {
  if (!/^https?:/.test(url)) return;
  const known = wanted.get(url);
  if (known) known.priority = Math.min(known.priority, priority);
  else wanted.set(url, { kind, priority, order: wanted.size });
}

/** `<use>`s of a symbol in another file (an icon sprite): that file, and the symbol's id in it. */
function externalUses(frozen: Frozen): { use: Element; attr: string; file: string; id: string }[] {
  const uses: { use: Element; attr: string; file: string; id: string }[] = [];
  for (const use of frozen.root.querySelectorAll('use')) {
    const attr = use.hasAttribute('href') ? 'href' : 'xlink:href';
    const value = use.getAttribute(attr);
    if (!value || value.startsWith('#')) continue;
    const url = resolveUrl(value, frozen.baseUrl);
    if (!url || !/^https?:/.test(url)) continue;
    const hash = url.indexOf('#');
    if (hash > 0) uses.push({ use, attr, file: url.slice(0, hash), id: decodeURIComponent(url.slice(hash + 1)) });
  }
  return uses;
}

/**
 * Icon sprites: a `<use href="icons.svg#x">` needs the file, which a snapshot shown elsewhere cannot
 * load (and a data: URL is not allowed there). Each fetched sprite is copied into the document once, in
 * an invisible `<svg>` (not display: none, which would break its gradients), with its ids prefixed so
 * they cannot clash with the page's, and the `<use>`s point at the copies.
 */
function inlineSprites(frozen: Frozen, inlined: Map<string, string>): void {
  const copies = new Map<string, string | null>();
  for (const { use, attr, file, id } of externalUses(frozen)) {
    if (!copies.has(file)) copies.set(file, copySprite(frozen.root, inlined.get(file), copies.size + 1));
    const prefix = copies.get(file);
    if (prefix) use.setAttribute(attr, `#${prefix}${id}`);
  }
}

function copySprite(root: Element, dataUrl: string | undefined, n: number): string | null {
  const text = dataUrl ? dataUrlText(dataUrl) : null;
  if (!text) return null;
  const sprite = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
  if (sprite.localName !== 'svg') return null;
  const prefix = `ds-sprite-${n}-`;
  for (const el of sprite.querySelectorAll('script, foreignObject')) el.remove();
  for (const el of [sprite, ...sprite.querySelectorAll('*')]) {
    for (const attr of [...el.attributes]) {
      if (/^on/i.test(attr.name)) el.removeAttribute(attr.name);
      else if (attr.name === 'id') el.setAttribute('id', `${prefix}${attr.value}`);
      else if (/^#/.test(attr.value) && /(^|:)href$/.test(attr.name)) el.setAttribute(attr.name, `#${prefix}${attr.value.slice(1)}`);
      else if (attr.value.includes('url(#')) el.setAttribute(attr.name, attr.value.replace(/url\(#/g, `url(#${prefix}`));
    }
  }
  const holder = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  holder.setAttribute('data-ds-sprite', '');
  holder.setAttribute('aria-hidden', 'true');
  holder.setAttribute('style', 'position: absolute; width: 0; height: 0; overflow: hidden;');
  holder.append(...sprite.childNodes);
  (root.querySelector(':scope > body') ?? root).append(holder);
  return prefix;
}

/** The text of a data: URL (base64 or percent-encoded), or null. */
function dataUrlText(dataUrl: string): string | null {
  const comma = dataUrl.indexOf(',');
  if (comma < 0) return null;
  const payload = dataUrl.slice(comma + 1);
  try {
    if (!/;base64$/i.test(dataUrl.slice(0, comma))) return decodeURIComponent(payload);
    return new TextDecoder().decode(Uint8Array.from(atob(decodeURIComponent(payload)), (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** Images an element draws itself: url()s in its inline style, an SVG `<image>`'s href. */
function elementImageUrls(el: Element, baseUrl: string): string[] {
  const urls: string[] = [];
  for (const match of (el.getAttribute('style') ?? '').matchAll(STYLE_URL)) {
    const url = resolveUrl(match[2]!.trim(), baseUrl);
    if (url) urls.push(url);
  }
  if (el.localName === 'image') {
    const href = el.getAttribute('href') ?? el.getAttribute('xlink:href');
    const url = href ? resolveUrl(href, baseUrl) : null;
    if (url) urls.push(url);
  }
  return urls.filter((url) => /^https?:/.test(url));
}

const STYLE_URL = /url\(\s*(["']?)([^"')]*)\1\s*\)/gi;

/**
 * Fetches the wanted images and fonts in priority order, a few at a time, within the per-resource and
 * per-snapshot budgets. What is not inlined stays an absolute URL.
 */
async function fetchResources(wanted: Wanted, progress: Progress, fetchResource: FetchResource, limits: Limits): Promise<void> {
  const queue = [...wanted.entries()].sort(([, a], [, b]) => a.priority - b.priority || a.order - b.order);
  const { counts } = progress;
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [url, { kind }] = next;
      if (progress.inlined.has(url)) continue;
      if (progress.inlinedBytes >= limits.maxTotalBytes) {
        counts.overBudget++;
        continue;
      }
      const res = await fetchResource(url, kind);
      if (typeof res?.dataUrl !== 'string' || !res.dataUrl.startsWith('data:')) {
        counts.failed++;
        continue;
      }
      const bytes = dataUrlBytes(res.dataUrl);
      if (bytes > limits.maxResourceBytes || progress.inlinedBytes + bytes > limits.maxTotalBytes) {
        counts.overBudget++;
        continue;
      }
      progress.inlinedBytes += bytes;
      counts.inlined++;
      progress.inlined.set(url, cssSafeDataUrl(res.dataUrl));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limits.concurrency) }, worker));
}

function dataUrlBytes(dataUrl: string): number {
  const comma = dataUrl.indexOf(',');
  const payload = dataUrl.length - comma - 1;
  return /;base64$/i.test(dataUrl.slice(0, comma)) ? Math.floor((payload * 3) / 4) : payload;
}

/** Quotes, parentheses and whitespace percent-encoded, so the data URL sits safely in `url("…")` and attributes. */
function cssSafeDataUrl(dataUrl: string): string {
  return dataUrl.replace(/["'()\s\\]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);
}

/** Edits the clone (once, synchronously) and writes the HTML. */
function assemble(
  frozen: Frozen,
  plan: DocumentPlan,
  progress: Progress,
  limits: Limits,
  run: { started: number; resources: number; fallback: boolean },
): SerializedSnapshot {
  const counters = { stylesheets: 0, linked: 0 };
  applyDocument(plan, progress, limits, counters);
  // Before every frame's own CSS, which must win over these defaults at equal (zero) specificity.
  if (frozen.frames.length > 0) headOf(frozen.root).prepend(styleElement(FRAME_RESET_CSS, 'frames'));
  finishRoot(frozen);
  const html = `<!DOCTYPE html>\n${frozen.root.outerHTML}`;
  const fetched = [...progress.sheets.values()];
  const stats: SnapshotStats = {
    ...frozen.stats,
    stylesheets: counters.stylesheets,
    fetchedStylesheets: fetched.filter(Boolean).length,
    failedStylesheets: fetched.filter((sheet) => !sheet).length,
    linkedStylesheets: counters.linked,
    resources: run.resources,
    inlinedResources: progress.counts.inlined,
    failedResources: progress.counts.failed,
    overBudgetResources: progress.counts.overBudget,
    inlinedBytes: progress.inlinedBytes,
    serializeMs: performance.now() - run.started,
    fallback: run.fallback,
  };
  progress.result = { html, bytes: new TextEncoder().encode(html).byteLength, stats };
  return progress.result;
}

/**
 * One document: its own elements cleaned first (so URLs resolve against its own base), its images and
 * canvases filled in, its stylesheets put where their elements were, then its frames filled. Returns,
 * for a frame, the CSS to put in its box.
 */
function applyDocument(plan: DocumentPlan, progress: Progress, limits: Limits, counters: { stylesheets: number; linked: number }): string {
  const { frozen, scope } = plan;
  const { inlined } = progress;
  inlineSprites(frozen, inlined);
  cleanElements(frozen.root, frozen.baseUrl, inlined);
  applyImages(frozen, inlined);
  encodeCanvases(frozen, progress, limits);
  const kept = new Set<Element>();
  let frameCss = '';
  for (const { owner, css, href } of plan.sheets) {
    if (css === null && (scope.kind !== 'document' || !href || !owner)) continue;
    counters.stylesheets++;
    if (scope.kind !== 'document') frameCss += inlineCssUrls(css!, inlined);
    else if (css === null) kept.add(keepAsLink(owner!, href!, counters));
    else if (owner) kept.add(replaceWithStyle(owner, inlineCssUrls(css, inlined)));
    else kept.add(headOf(frozen.root).appendChild(styleElement(inlineCssUrls(css, inlined), 'adopted')));
  }
  // Style elements without a stylesheet (disabled, not loaded) must not start applying in the snapshot.
  for (const el of frozen.root.querySelectorAll('style, link[rel~="stylesheet" i]')) if (!kept.has(el)) el.remove();
  const shadowCss = inlineCssUrls(plan.shadowCss, inlined);
  if (scope.kind === 'document' && shadowCss) headOf(frozen.root).append(styleElement(shadowCss, 'shadow'));
  for (const { frame, plan: framePlan } of plan.frames) fillFrameBox(frame, applyDocument(framePlan, progress, limits, counters));
  return scope.kind === 'document' ? '' : frameCss + shadowCss;
}

function keepAsLink(owner: Element, href: string, counters: { linked: number }): Element {
  counters.linked++;
  const link = document.createElement('link');
  link.setAttribute('rel', 'stylesheet');
  link.setAttribute('href', href);
  const media = owner.getAttribute('media');
  if (media) link.setAttribute('media', media);
  owner.replaceWith(link);
  return link;
}

function replaceWithStyle(owner: Element, css: string): Element {
  const style = document.createElement('style');
  style.textContent = css;
  owner.replaceWith(style);
  return style;
}

function styleElement(css: string, role: string): HTMLStyleElement {
  const style = document.createElement('style');
  style.setAttribute('data-ds-style', role);
  style.textContent = css;
  return style;
}

function headOf(root: Element): Element {
  let head = root.querySelector(':scope > head');
  if (!head) {
    head = document.createElement('head');
    root.prepend(head);
  }
  return head;
}

/** `url("…")` as snapshot-css writes them, swapped for the data fetched for that address. */
function inlineCssUrls(css: string, inlined: Map<string, string>): string {
  if (inlined.size === 0) return css;
  return css.replace(/url\("([^"]*)"\)/g, (whole, url: string) => {
    const data = inlined.get(url);
    return data ? `url("${data}")` : whole;
  });
}

/**
 * Each `<img>` shows the candidate the browser had chosen, as data. srcset, sizes and `<picture>` sources
 * go (the browser could pick another one, which is not inlined); an image chosen by density gets its
 * displayed size as width and height attributes, which CSS still overrides like the intrinsic size.
 */
function applyImages(frozen: Frozen, inlined: Map<string, string>): void {
  for (const image of frozen.images) {
    const { element, url } = image;
    element.removeAttribute('srcset');
    element.removeAttribute('sizes');
    element.removeAttribute('loading');
    if (element.parentElement?.localName === 'picture') {
      for (const source of element.parentElement.querySelectorAll(':scope > source')) source.remove();
    }
    if (image.hadSrcset && image.naturalWidth > 0 && !element.hasAttribute('width') && !element.hasAttribute('height')) {
      element.setAttribute('width', String(image.naturalWidth));
      element.setAttribute('height', String(image.naturalHeight));
    }
    element.setAttribute('src', inlined.get(url) ?? url);
  }
}

/** Canvas copies and video frames become PNG data (within the budget); a video without one, its poster. */
function encodeCanvases(frozen: Frozen, progress: Progress, limits: Limits): void {
  for (const { element, copy, fallbackUrl } of frozen.canvases) {
    let data: string | null = null;
    try {
      data = copy ? copy.toDataURL('image/png') : null;
    } catch {
      data = null; // tainted by a cross-origin image
    }
    const bytes = data ? dataUrlBytes(data) : 0;
    if (data && bytes <= limits.maxResourceBytes && progress.inlinedBytes + bytes <= limits.maxTotalBytes) {
      element.setAttribute('src', data);
      progress.inlinedBytes += bytes;
    } else if (fallbackUrl) {
      const poster = resolveUrl(fallbackUrl, frozen.baseUrl);
      if (poster) element.setAttribute('src', progress.inlined.get(poster) ?? poster);
    }
  }
}

const URL_ATTRIBUTES = ['href', 'src', 'poster', 'action', 'formaction', 'background', 'cite', 'longdesc', 'xlink:href'];
const DROPPED_ELEMENTS = new Set(['script', 'noscript', 'base']);
const RESOURCE_HINTS = /(^|\s)(preload|prefetch|modulepreload|preconnect|dns-prefetch|prerender|manifest)(\s|$)/i;

/**
 * What the sanitiser would remove anyway goes now (scripts, handlers, `<base>`, CSP and refresh metas,
 * resource hints), and every URL attribute is made absolute against this document's base, since the
 * snapshot is shown away from its origin and `<base>` is gone. Inline styles and SVG images get data.
 */
function cleanElements(root: Element, baseUrl: string, inlined: Map<string, string>): void {
  for (const el of root.querySelectorAll('*')) {
    const name = el.localName;
    if (
      DROPPED_ELEMENTS.has(name) ||
      (name === 'meta' && (el.hasAttribute('http-equiv') || el.hasAttribute('charset'))) ||
      (name === 'link' && RESOURCE_HINTS.test(el.getAttribute('rel') ?? ''))
    ) {
      el.remove();
      continue;
    }
    for (const attr of [...el.attributes]) {
      if (/^on/i.test(attr.name)) el.removeAttribute(attr.name);
    }
    for (const attr of URL_ATTRIBUTES) absolutizeAttribute(el, attr, baseUrl, inlined);
    const srcset = el.getAttribute('srcset');
    if (srcset) el.setAttribute('srcset', absoluteSrcset(srcset, baseUrl));
    const style = el.getAttribute('style');
    if (style && /url\(/i.test(style)) el.setAttribute('style', inlineStyleUrls(style, baseUrl, inlined));
  }
}

function absolutizeAttribute(el: Element, attr: string, baseUrl: string, inlined: Map<string, string>): void {
  const value = el.getAttribute(attr);
  if (value === null || value.startsWith('#') || value.startsWith('data:')) return;
  if (/^\s*javascript:/i.test(value)) {
    el.removeAttribute(attr);
    return;
  }
  let absolute: string;
  try {
    absolute = new URL(value, baseUrl).href;
  } catch {
    return;
  }
  // An SVG <image> is drawn like an <img>; everything else is a link or a reference.
  const data = el.localName === 'image' ? inlined.get(absolute) : undefined;
  el.setAttribute(attr, data ?? absolute);
}

function absoluteSrcset(srcset: string, baseUrl: string): string {
  return srcset
    .split(/,\s+/)
    .map((candidate) => {
      const [url = '', ...descriptor] = candidate.trim().split(/\s+/);
      return [resolveUrl(url, baseUrl) ?? url, ...descriptor].join(' ');
    })
    .join(', ');
}

function inlineStyleUrls(style: string, baseUrl: string, inlined: Map<string, string>): string {
  return style.replace(STYLE_URL, (whole, _quote: string, raw: string) => {
    if (/^(data:|#)/i.test(raw.trim())) return whole;
    const url = resolveUrl(raw.trim(), baseUrl);
    if (!url) return 'url("about:invalid")';
    return `url("${inlined.get(url) ?? url}")`;
  });
}

/**
 * Fills the div standing in for an iframe: the frame's CSS (scoped to the box), then divs standing in for
 * its html and body with their attributes (the frame's CSS may select them), then the body's content.
 */
function fillFrameBox(frame: FrozenFrame, css: string): void {
  const doc = frame.document!;
  const html = document.createElement('div');
  copyAttributes(doc.root, html);
  html.setAttribute('data-ds-frame-html', '');
  const body = doc.root.querySelector(':scope > body');
  const bodyDiv = document.createElement('div');
  if (body) {
    copyAttributes(body, bodyDiv);
    bodyDiv.append(...body.childNodes);
  }
  bodyDiv.setAttribute('data-ds-frame-body', '');
  html.append(bodyDiv);
  frame.box.replaceChildren(styleElement(css, `frame ${frame.id}`), html);
}

function copyAttributes(from: Element, to: Element): void {
  for (const attr of from.attributes) if (!attr.name.startsWith('xmlns')) to.setAttribute(attr.name, attr.value);
}

/** `<meta charset>` first (the HTML is UTF-8 whatever the page declared); where and how big it was. */
function finishRoot(frozen: Frozen): void {
  const head = headOf(frozen.root);
  const charset = document.createElement('meta');
  charset.setAttribute('charset', 'utf-8');
  head.prepend(charset);
  frozen.root.setAttribute(URL_ATTRIBUTE, frozen.url);
  frozen.root.setAttribute(VIEWPORT_ATTRIBUTE, `${frozen.viewport.width}x${frozen.viewport.height}`);
  if (frozen.scroll.x || frozen.scroll.y) {
    frozen.root.setAttribute(SCROLL_ATTRIBUTE, `${Math.round(frozen.scroll.x)},${Math.round(frozen.scroll.y)}`);
  }
}
