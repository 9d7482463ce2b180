/**
 * DOM snapshots of a recorded page, in two halves:
 *
 * - `freezeDocument` runs synchronously inside the recorder's capture-phase click handler, before the page
 *   reacts to the click. It must be quick, because the page's own click handling waits for it: it clones
 *   the document, copies the state cloning loses (selected options, canvases), keeps references to the
 *   CSSOM rules (so CSS-in-JS rules inserted with insertRule count), flattens open shadow roots and
 *   freezes same-origin iframes recursively, marks the clicked element, and strips private data.
 * - `serializeFrozen` runs afterwards, asynchronously: it turns the frozen clone into one self-contained
 *   HTML document (stylesheets inlined as `<style>`, cross-origin ones fetched through `fetchResource`,
 *   fonts and images inlined as data: URLs within a budget, iframes flattened into sized divs) that still
 *   renders after the server's sanitiser (src/generation/sanitize.ts) with no access to the recorded app.
 *
 * Pure DOM: no `chrome.*`; the extension passes in what needs its privileges (fetchResource, and
 * optionally closed shadow roots).
 */
import { isRedacted, isSensitiveField, maskText, REDACT_ATTRIBUTE, redactedRoots } from '../shared/privacy';
import {
  type CapturedSheet,
  type CssContext,
  type CssScope,
  FRAME_RESET_CSS,
  fontFaceKey,
  prefetchStylesheets,
  type ResourceKind,
  readableRules,
  resolveUrl,
  type SheetCache,
  sheetToCss,
} from './snapshot-css';

export type { ResourceKind } from './snapshot-css';

/** Marks the clicked element in the snapshot, for the server and the player. */
export const TARGET_ATTRIBUTE = 'data-ds-target';
/** "left,top" scroll offsets of a scrolled element (on `<html>`: of the window). */
export const SCROLL_ATTRIBUTE = 'data-ds-scroll';
/** On `<html>`: the address of the recorded page. */
export const URL_ATTRIBUTE = 'data-ds-url';
/** On `<html>`: the window's inner size when the page was frozen, "width×height" as "1280x800". */
export const VIEWPORT_ATTRIBUTE = 'data-ds-viewport';
/** On the div that stands in for a flattened iframe. */
export const FRAME_ATTRIBUTE = 'data-ds-frame';
/** On the host of a flattened shadow root. */
export const SHADOW_ATTRIBUTE = 'data-ds-shadow';

export interface FreezeOptions {
  /** The clicked element (in the document or in one of its same-origin frames or open shadow roots). */
  target?: Element | null;
  /**
   * The shadow root of an element. Defaults to `el.shadowRoot` (open roots only); the extension can pass
   * `chrome.dom.openOrClosedShadowRoot` to flatten closed ones too.
   */
  shadowRootOf?: (el: Element) => ShadowRoot | null;
  /** Canvas and video pixels copied per snapshot (4 bytes each while frozen). Default 8 million. */
  maxCanvasPixels?: number;
  /** How deep same-origin iframes are followed. Default 3. */
  maxFrameDepth?: number;
  /**
   * Whose scroll offsets are recorded (the window's always are). Reading an element's costs about 1.4 µs,
   * 14 ms on a 10 000-element page, more than cloning it: 'all' reads every element's; a tracker from
   * trackScrolling only those it saw scroll, nearly free; 'none' none. 'auto' (the default) reads every
   * element's on a document's first freeze and starts a tracker for it (a capture-phase scroll listener
   * that stays for the life of the page), so later freezes of that document only read what scrolled.
   */
  scroll?: 'auto' | 'all' | 'none' | ScrollTracker;
}

/** Elements that have scrolled since trackScrolling started (and, after an idle scan, before). */
export interface ScrollTracker {
  readonly scrolled: { has(el: Element): boolean };
  stop(): void;
}

/**
 * Watches scrolling in `doc` (a capture-phase listener sees every element's scroll event), so a freeze
 * reads the offsets of those few elements instead of every element's. Elements scrolled before it
 * started are found by one full scan when the browser is idle (off the click path).
 */
export function trackScrolling(doc: Document): ScrollTracker {
  return startTracker(doc, true);
}

/** The tracker behind trackScrolling; 'auto' freezes start one without the idle scan (they read all first). */
function startTracker(doc: Document, scanWhenIdle: boolean): ScrollTracker & { scrolled: WeakSet<Element> } {
  const scrolled = new WeakSet<Element>();
  const onScroll = (event: Event) => {
    const target = event.target as Node | null;
    if (target?.nodeType === Node.ELEMENT_NODE) scrolled.add(target as Element);
  };
  doc.addEventListener('scroll', onScroll, { capture: true, passive: true });
  const view = doc.defaultView;
  const scan = () => {
    for (const el of doc.getElementsByTagName('*')) if (el.scrollTop !== 0 || el.scrollLeft !== 0) scrolled.add(el);
  };
  const idle = scanWhenIdle && view && 'requestIdleCallback' in view ? view.requestIdleCallback(scan, { timeout: 2_000 }) : null;
  return {
    scrolled,
    stop: () => {
      doc.removeEventListener('scroll', onScroll, { capture: true });
      if (idle !== null) view?.cancelIdleCallback(idle);
    },
  };
}

/** A media element's current picture, copied at freeze time and encoded later. */
interface FrozenCanvas {
  /** The `<img>` that replaced the canvas or video in the clone. */
  element: HTMLImageElement;
  copy: HTMLCanvasElement | null;
  /** A video's poster, used when no frame could be copied. */
  fallbackUrl: string | null;
}

/** An `<img>` of the clone and the candidate the browser was showing (its currentSrc). */
interface FrozenImage {
  element: HTMLImageElement;
  url: string;
  hadSrcset: boolean;
  naturalWidth: number;
  naturalHeight: number;
}

/** A stylesheet and the element of the clone it came from (null for adopted stylesheets). */
interface FrozenSheet {
  sheet: CapturedSheet;
  owner: Element | null;
}

/** An iframe of the page: the div standing in for it, and its document if it could be read. */
interface FrozenFrame {
  id: string;
  box: HTMLElement;
  document: Frozen | null;
}

export interface FreezeStats {
  /** Elements in the clone, frames and shadow roots included. */
  elements: number;
  frames: number;
  /** Frames whose document was read (same-origin, not redacted, within the depth limit). */
  frozenFrames: number;
  shadowRoots: number;
  canvases: number;
  sensitiveFields: number;
  redactedSubtrees: number;
  /** Time freezeDocument took, in milliseconds (the delay it adds to the click). */
  freezeMs: number;
}

/** What freezeDocument returns: opaque to callers, consumed once by serializeFrozen. */
export interface Frozen {
  url: string;
  baseUrl: string;
  viewport: { width: number; height: number };
  scroll: { x: number; y: number };
  /** A clone of `<html>` that never joins a document (so nothing in it loads or runs). */
  root: HTMLElement;
  sheets: FrozenSheet[];
  shadows: { id: string; sheets: CapturedSheet[] }[];
  frames: FrozenFrame[];
  images: FrozenImage[];
  canvases: FrozenCanvas[];
  /** Font faces the page had loaded (fontFaceKey), fetched first. */
  loadedFonts: Set<string>;
  /** Whether a media query matches in the recorded window. */
  matchesMedia: (query: string) => boolean;
  stats: FreezeStats;
  /** What serializeFrozen has fetched so far (internal). */
  progress: Progress;
  /**
   * The snapshot right now, synchronously, for a page that is going away before serializeFrozen is done:
   * what has been fetched so far is inlined, cross-origin stylesheets not yet fetched stay `<link>`s and
   * other resources URLs. Ends the serialisation (serializeFrozen then resolves to this same snapshot).
   */
  fallbackHtml(): string;
}

interface FreezeContext {
  target: Element | null;
  shadowRootOf: (el: Element) => ShadowRoot | null;
  canvasPixelsLeft: number;
  maxFrameDepth: number;
  scroll: 'auto' | 'all' | 'none' | ScrollTracker;
  nextId: number;
  stats: FreezeStats;
}

/** Work that mutates the clone, run once a tree has been walked (walking uses live element lists). */
type Deferred = () => void;

/**
 * Freezes `doc` as it is now. Synchronous and quick: call it from the capture-phase click handler.
 * The result holds references to the page's CSSOM rules; serialise it soon after.
 */
export function freezeDocument(doc: Document, options: FreezeOptions = {}): Frozen {
  const started = performance.now();
  const ctx: FreezeContext = {
    target: options.target ?? null,
    shadowRootOf: options.shadowRootOf ?? ((el) => el.shadowRoot),
    canvasPixelsLeft: options.maxCanvasPixels ?? 8_000_000,
    maxFrameDepth: options.maxFrameDepth ?? 3,
    scroll: options.scroll ?? 'auto',
    nextId: 1,
    stats: { elements: 0, frames: 0, frozenFrames: 0, shadowRoots: 0, canvases: 0, sensitiveFields: 0, redactedSubtrees: 0, freezeMs: 0 },
  };
  const frozen = freezeDoc(doc, ctx, 0);
  ctx.stats.freezeMs = performance.now() - started;
  return frozen;
}

function freezeDoc(doc: Document, ctx: FreezeContext, depth: number): Frozen {
  const live = doc.documentElement;
  const root = live.cloneNode(true) as HTMLElement;
  const view = doc.defaultView;
  const frozen: Frozen = {
    url: doc.URL,
    baseUrl: doc.baseURI,
    viewport: { width: view?.innerWidth ?? 0, height: view?.innerHeight ?? 0 },
    scroll: { x: view?.scrollX ?? 0, y: view?.scrollY ?? 0 },
    root,
    sheets: [],
    shadows: [],
    frames: [],
    images: [],
    canvases: [],
    loadedFonts: loadedFontKeys(doc),
    matchesMedia: (query) => view?.matchMedia(query).matches ?? true,
    stats: ctx.stats,
    progress: { sheets: new Map(), inlined: new Map(), inlinedBytes: 0, counts: { inlined: 0, failed: 0, overBudget: 0 }, result: null },
    fallbackHtml: () => fallbackHtml(frozen),
  };
  const owners = new Map<Element, Element>();
  const pending: Deferred[] = [];
  if (live === ctx.target) root.setAttribute(TARGET_ATTRIBUTE, '');
  walkTree(live, root, { frozen, ctx, owners, pending, depth, topLayer: openTopLayer(doc), scroll: scrollPlan(doc, ctx, depth) });
  // Deferred work may walk more trees (shadow roots), which defer more work.
  for (let i = 0; i < pending.length; i++) pending[i]!();
  frozen.sheets = captureSheets(doc, owners);
  ctx.stats.elements += root.getElementsByTagName('*').length + 1;
  applyPrivacy(root, ctx);
  // Redaction may have removed images and canvases: they are neither fetched nor encoded.
  frozen.images = frozen.images.filter((image) => root.contains(image.element));
  frozen.canvases = frozen.canvases.filter((canvas) => root.contains(canvas.element));
  return frozen;
}

interface WalkState {
  frozen: Frozen;
  ctx: FreezeContext;
  /** Live `<style>`/`<link>` → its clone, to put each stylesheet's text where its element was. */
  owners: Map<Element, Element>;
  pending: Deferred[];
  depth: number;
  /** Open dialogs and popovers of this document (usually none). */
  topLayer: ReadonlySet<Element>;
  scroll: ScrollPlan;
}

/** Whose scroll offsets this document's walk reads, and which set learns of the scrolled ones. */
interface ScrollPlan {
  all: boolean;
  tracked: { has(el: Element): boolean } | null;
  /** A new 'auto' tracker, told of the elements found scrolled while reading all. */
  seed: WeakSet<Element> | null;
}

const autoTrackers = new WeakMap<Document, ScrollTracker>();

function scrollPlan(doc: Document, ctx: FreezeContext, depth: number): ScrollPlan {
  const mode = ctx.scroll;
  if (mode === 'all' || mode === 'none') return { all: mode === 'all', tracked: null, seed: null };
  // A caller's tracker watches its own document; frames in it are treated as 'auto'.
  if (typeof mode === 'object' && depth === 0) return { all: false, tracked: mode.scrolled, seed: null };
  const known = autoTrackers.get(doc);
  if (known) return { all: false, tracked: known.scrolled, seed: null };
  const tracker = startTracker(doc, false);
  autoTrackers.set(doc, tracker);
  return { all: true, tracked: null, seed: tracker.scrolled };
}

/**
 * Visits each element of a live tree with its counterpart in the clone. A deep clone has the same
 * elements in the same order, so the two lists pair up by index without marking the live page.
 */
function walkTree(liveRoot: Element | ShadowRoot, cloneRoot: Element | DocumentFragment, state: WalkState): void {
  const live = elementsOf(liveRoot);
  const clone = elementsOf(cloneRoot);
  const count = Math.min(live.length, clone.length);
  for (let i = 0; i < count; i++) visitElement(live[i]!, clone[i]!, state);
}

function elementsOf(root: Element | ShadowRoot | DocumentFragment): ArrayLike<Element> {
  return 'getElementsByTagName' in root ? root.getElementsByTagName('*') : root.querySelectorAll('*');
}

function visitElement(live: Element, clone: Element, state: WalkState): void {
  const { ctx } = state;
  if (live === ctx.target) clone.setAttribute(TARGET_ATTRIBUTE, '');
  const { scroll } = state;
  if (scroll.all || scroll.tracked?.has(live)) {
    const left = live.scrollLeft;
    const top = live.scrollTop;
    if (left !== 0 || top !== 0) {
      clone.setAttribute(SCROLL_ATTRIBUTE, `${Math.round(left)},${Math.round(top)}`);
      scroll.seed?.add(live);
    }
  }
  const shadow = ctx.shadowRootOf(live);
  if (shadow) state.pending.push(() => flattenShadow(live, clone, shadow, state));
  if (state.topLayer.size > 0 && state.topLayer.has(live)) state.pending.push(() => freezeTopLayer(live as HTMLElement, clone));
  switch (live.localName) {
    case 'input':
      freezeInput(clone as HTMLInputElement, ctx);
      break;
    case 'textarea':
      freezeTextarea(clone as HTMLTextAreaElement, ctx);
      break;
    case 'select':
      freezeSelect(live as HTMLSelectElement, clone as HTMLSelectElement);
      break;
    case 'img':
      freezeImage(live as HTMLImageElement, clone as HTMLImageElement, state.frozen);
      break;
    case 'canvas':
    case 'video':
      freezeMedia(live as HTMLCanvasElement | HTMLVideoElement, clone, state);
      break;
    case 'audio':
      silence(clone as HTMLMediaElement);
      break;
    case 'iframe':
    case 'frame':
      state.pending.push(() => freezeFrame(live as HTMLIFrameElement, clone, state));
      break;
    case 'style':
    case 'link':
      state.owners.set(live, clone);
      break;
  }
}

/**
 * Cloning keeps an input's current value and checkedness (the HTML cloning steps copy them), but only
 * attributes reach the HTML: the state is written into them. Sensitive fields lose their value instead,
 * both the attribute (frameworks such as React mirror the value there) and the property.
 */
function freezeInput(input: HTMLInputElement, ctx: FreezeContext): void {
  if (isSensitiveField(input)) {
    clearField(input);
    ctx.stats.sensitiveFields++;
    return;
  }
  const type = input.type;
  if (type === 'checkbox' || type === 'radio') input.toggleAttribute('checked', input.checked);
  else if (type !== 'file') input.setAttribute('value', input.value);
}

/** A textarea's clone keeps its current value (cloning steps), its markup only the default: written back. */
function freezeTextarea(textarea: HTMLTextAreaElement, ctx: FreezeContext): void {
  if (isSensitiveField(textarea)) {
    clearField(textarea);
    ctx.stats.sensitiveFields++;
    return;
  }
  textarea.textContent = textarea.value;
}

function clearField(field: HTMLInputElement | HTMLTextAreaElement): void {
  field.removeAttribute('value');
  if (field.localName === 'textarea') field.textContent = '';
  field.value = '';
}

/** Which options are selected is not copied by cloning: read from the live select, written as attributes. */
function freezeSelect(live: HTMLSelectElement, clone: HTMLSelectElement): void {
  const options = live.options;
  const cloned = clone.options;
  for (let i = 0; i < options.length && i < cloned.length; i++) cloned[i]!.toggleAttribute('selected', options[i]!.selected);
}

/** The candidate the browser chose (srcset, `<picture>`), so the snapshot shows that one image. */
function freezeImage(live: HTMLImageElement, clone: HTMLImageElement, frozen: Frozen): void {
  const url = live.currentSrc;
  if (!url || url.startsWith('data:')) return;
  frozen.images.push({
    element: clone,
    url,
    hadSrcset: live.hasAttribute('srcset') || live.parentElement?.localName === 'picture',
    naturalWidth: live.naturalWidth,
    naturalHeight: live.naturalHeight,
  });
}

/**
 * A canvas's pixels are not part of the DOM, nor a video's current frame: both are copied into a
 * canvas of our own now (a GPU copy, cheap) and encoded as PNG later, outside the click handler. Within
 * a pixel budget; a tainted (cross-origin) canvas copies but cannot be encoded, and ends up blank.
 */
function freezeMedia(live: HTMLCanvasElement | HTMLVideoElement, clone: Element, state: WalkState): void {
  const isVideo = live.localName === 'video';
  const video = live as HTMLVideoElement;
  const width = isVideo ? video.videoWidth : (live as HTMLCanvasElement).width;
  const height = isVideo ? video.videoHeight : (live as HTMLCanvasElement).height;
  let copy: HTMLCanvasElement | null = null;
  const pixels = width * height;
  if (pixels > 0 && pixels <= state.ctx.canvasPixelsLeft && (!isVideo || video.readyState >= 2)) {
    copy = document.createElement('canvas');
    copy.width = width;
    copy.height = height;
    try {
      copy.getContext('2d')?.drawImage(live, 0, 0);
      state.ctx.canvasPixelsLeft -= pixels;
    } catch {
      copy = null;
    }
  }
  if (isVideo) silence(clone as HTMLMediaElement);
  const poster = isVideo && video.poster ? video.poster : null;
  state.ctx.stats.canvases++;
  state.pending.push(() => {
    const image = replaceWithImage(clone, isVideo ? live.clientWidth : width, isVideo ? live.clientHeight : height);
    state.frozen.canvases.push({ element: image, copy, fallbackUrl: poster });
  });
}

/** An `<img>` with the element's attributes in its place: canvases and videos do not survive sanitising. */
function replaceWithImage(element: Element, width: number, height: number): HTMLImageElement {
  const image = document.createElement('img');
  for (const attr of element.attributes) {
    if (!/^(src|srcset|poster|autoplay|controls|loop|muted|preload|playsinline)$/i.test(attr.name)) image.setAttribute(attr.name, attr.value);
  }
  if (!image.hasAttribute('width') && width > 0) image.setAttribute('width', String(width));
  if (!image.hasAttribute('height') && height > 0) image.setAttribute('height', String(height));
  image.setAttribute('data-ds-media', element.localName);
  element.replaceWith(image);
  return image;
}

/** A cloned media element starts loading on its own: stopped, as the clone is only ever markup. */
function silence(media: HTMLMediaElement): void {
  media.removeAttribute('autoplay');
  media.preload = 'none';
  try {
    media.pause();
  } catch {
    // Nothing was playing.
  }
}

/**
 * A same-origin frame's document is frozen like the page (recursively, depth-limited); the frame element
 * is replaced by a div of the same box, which serialising fills with the frame's content. A cross-origin
 * or redacted frame keeps only the box: its content is unreadable or must not be recorded.
 */
function freezeFrame(live: HTMLIFrameElement, clone: Element, state: WalkState): void {
  const { ctx } = state;
  ctx.stats.frames++;
  const id = `f${ctx.nextId++}`;
  let doc: Document | null = null;
  try {
    doc = state.depth < ctx.maxFrameDepth && !isRedacted(live) ? live.contentDocument : null;
  } catch {
    doc = null;
  }
  const box = frameBox(live, doc, id);
  clone.replaceWith(box);
  const frozen = doc?.documentElement ? freezeDoc(doc, ctx, state.depth + 1) : null;
  if (frozen) ctx.stats.frozenFrames++;
  state.frozen.frames.push({ id, box, document: frozen });
}

/** Open `<dialog>`s and open popovers: what the browser draws in the top layer, or may (a non-modal dialog). */
function openTopLayer(doc: Document): ReadonlySet<Element> {
  const open = new Set<Element>();
  for (const el of doc.querySelectorAll('dialog[open], [popover]')) {
    if (el.localName === 'dialog' || matches(el, ':popover-open')) open.add(el);
  }
  return open;
}

/** `el.matches`, false for a selector this browser does not know. */
function matches(el: Element, selector: string): boolean {
  try {
    return el.matches(selector);
  } catch {
    return false;
  }
}

/** Computed properties that draw a dialog or popover, which lose their UA styles in the snapshot. */
const TOP_LAYER_PROPERTIES = [
  'display', 'overflow-x', 'overflow-y', 'padding-top', 'padding-right', 'padding-bottom', 'padding-left',
  'border-top-width', 'border-right-width', 'border-bottom-width', 'border-left-width',
  'border-top-style', 'border-right-style', 'border-bottom-style', 'border-left-style',
  'border-top-color', 'border-right-color', 'border-bottom-color', 'border-left-color',
  'border-top-left-radius', 'border-top-right-radius', 'border-bottom-right-radius', 'border-bottom-left-radius',
  'background-color', 'color', 'box-shadow', 'opacity', 'text-align', 'box-sizing',
];
const IN_FLOW_PROPERTIES = [
  'position', 'top', 'right', 'bottom', 'left', 'margin-top', 'margin-right', 'margin-bottom', 'margin-left',
  'width', 'height', 'z-index', 'transform',
];

/**
 * The sanitiser drops `<dialog>` (and everything in it), and an open popover's state is not markup: a
 * modal dialog the user clicked in would vanish from the snapshot. A dialog becomes a div with
 * role="dialog", a popover loses its attribute, and both get inline what drew them: their computed
 * look, and, for what was in the top layer, its box on screen as position: fixed above everything, with
 * a modal dialog's ::backdrop as a div under it.
 */
function freezeTopLayer(live: HTMLElement, clone: Element): void {
  const view = live.ownerDocument.defaultView;
  if (!view) return;
  const computed = view.getComputedStyle(live);
  const modal = matches(live, ':modal');
  const inTopLayer = modal || matches(live, ':popover-open');
  const declarations = TOP_LAYER_PROPERTIES.map((name) => `${name}: ${computed.getPropertyValue(name)}`);
  if (inTopLayer) {
    const rect = live.getBoundingClientRect();
    declarations.push(
      'position: fixed', `left: ${rect.left}px`, `top: ${rect.top}px`, `width: ${rect.width}px`, `height: ${rect.height}px`,
      'right: auto', 'bottom: auto', 'margin: 0', 'max-width: none', 'max-height: none', 'box-sizing: border-box', 'z-index: 2147483647',
    );
  } else {
    declarations.push(...IN_FLOW_PROPERTIES.map((name) => `${name}: ${computed.getPropertyValue(name)}`));
  }
  let element = clone;
  if (live.localName === 'dialog') {
    element = document.createElement('div');
    for (const attr of clone.attributes) if (attr.name !== 'open') element.setAttribute(attr.name, attr.value);
    if (!element.hasAttribute('role')) element.setAttribute('role', 'dialog');
    if (modal) element.setAttribute('aria-modal', 'true');
    element.append(...clone.childNodes);
    clone.replaceWith(element);
  } else {
    element.removeAttribute('popover');
  }
  element.setAttribute('style', `${declarations.join('; ')};`);
  element.setAttribute('data-ds-top-layer', modal ? 'modal' : 'open');
  if (modal) element.before(backdrop(view.getComputedStyle(live, '::backdrop')));
}

function backdrop(style: CSSStyleDeclaration): HTMLElement {
  const div = document.createElement('div');
  div.setAttribute('data-ds-backdrop', '');
  div.setAttribute(
    'style',
    `position: fixed; inset: 0; z-index: 2147483646; background-color: ${style.backgroundColor || 'rgba(0, 0, 0, 0.1)'}; backdrop-filter: ${style.backdropFilter || 'none'};`,
  );
  return div;
}

/** Computed properties that place and draw an iframe's box, copied onto the div that replaces it. */
const FRAME_BOX_PROPERTIES = [
  'position', 'top', 'right', 'bottom', 'left', 'z-index', 'float', 'clear', 'vertical-align',
  'margin-top', 'margin-right', 'margin-bottom', 'margin-left',
  'border-top-width', 'border-right-width', 'border-bottom-width', 'border-left-width',
  'border-top-style', 'border-right-style', 'border-bottom-style', 'border-left-style',
  'border-top-color', 'border-right-color', 'border-bottom-color', 'border-left-color',
  'border-top-left-radius', 'border-top-right-radius', 'border-bottom-right-radius', 'border-bottom-left-radius',
  'box-shadow', 'opacity', 'transform', 'visibility', 'flex', 'align-self', 'justify-self', 'order', 'grid-area',
];

/**
 * The div that stands in for an iframe: the iframe's border box (its offset size, so transforms do not
 * count), margins and borders as computed, its class and id (the page's CSS may select them), scrolling
 * like a frame. The frame's canvas background (its html's, else its body's) is painted on the box,
 * since background propagation to the viewport does not happen for a div.
 */
function frameBox(live: HTMLIFrameElement, doc: Document | null, id: string): HTMLElement {
  const box = document.createElement('div');
  for (const name of ['id', 'class', 'title', 'role']) {
    const value = live.getAttribute(name);
    if (value !== null) box.setAttribute(name, value);
  }
  box.setAttribute(FRAME_ATTRIBUTE, id);
  const computed = (live.ownerDocument.defaultView ?? window).getComputedStyle(live);
  const declarations = FRAME_BOX_PROPERTIES.map((name) => `${name}: ${computed.getPropertyValue(name)}`);
  const display = computed.display === 'inline' ? 'inline-block' : computed.display;
  declarations.push(`display: ${display}`, 'box-sizing: border-box', `width: ${live.offsetWidth}px`, `height: ${live.offsetHeight}px`, 'overflow: auto');
  const background = doc ? canvasBackground(doc) : null;
  if (background) declarations.push(`background-color: ${background}`);
  box.setAttribute('style', `${declarations.join('; ')};`);
  const view = doc?.defaultView;
  if (view && (view.scrollX || view.scrollY)) box.setAttribute(SCROLL_ATTRIBUTE, `${Math.round(view.scrollX)},${Math.round(view.scrollY)}`);
  return box;
}

function canvasBackground(doc: Document): string | null {
  const view = doc.defaultView;
  if (!view) return null;
  for (const el of [doc.documentElement, doc.body]) {
    if (!el) continue;
    const color = view.getComputedStyle(el).backgroundColor;
    if (color && color !== 'rgba(0, 0, 0, 0)' && color !== 'transparent') return color;
  }
  return null;
}

/**
 * An open shadow root becomes ordinary children of its host: the shadow tree's content, with the host's
 * light children moved into the `<slot>`s they were assigned to (a slot with none keeps its fallback).
 * The shadow root's styles are kept apart and scoped to the host when serialising; their elements leave
 * the tree so they do not apply to the whole page.
 */
function flattenShadow(liveHost: Element, cloneHost: Element, shadow: ShadowRoot, state: WalkState): void {
  const id = `s${state.ctx.nextId++}`;
  state.ctx.stats.shadowRoots++;
  const content = document.createDocumentFragment();
  for (const child of shadow.childNodes) content.append(child.cloneNode(true));
  const shadowOwners = new Map<Element, Element>();
  walkTree(shadow, content, { ...state, owners: shadowOwners });
  const sheets = [...shadow.styleSheets, ...shadow.adoptedStyleSheets]
    .filter((sheet) => !sheet.disabled)
    .map((sheet) => captureSheet(sheet, liveHost.ownerDocument.baseURI));
  state.frozen.shadows.push({ id, sheets });
  for (const owner of content.querySelectorAll('style, link[rel~="stylesheet" i]')) owner.remove();

  const lightChildren = [...cloneHost.childNodes];
  const liveChildren = [...liveHost.childNodes];
  const liveSlots = shadow.querySelectorAll('slot');
  const cloneSlots = content.querySelectorAll('slot');
  for (let i = 0; i < liveSlots.length && i < cloneSlots.length; i++) {
    const assigned = liveSlots[i]!.assignedNodes()
      .map((node) => lightChildren[liveChildren.indexOf(node as ChildNode)])
      .filter((node): node is ChildNode => node !== undefined);
    if (assigned.length > 0) cloneSlots[i]!.replaceChildren(...assigned);
  }
  cloneHost.replaceChildren(content);
  cloneHost.setAttribute(SHADOW_ATTRIBUTE, id);
}

/** The document's stylesheets in cascade order (adopted ones last), each tied to its clone element. */
function captureSheets(doc: Document, owners: Map<Element, Element>): FrozenSheet[] {
  const sheets: FrozenSheet[] = [];
  for (const sheet of doc.styleSheets) {
    // Looked up by identity, not instanceof: a frame's nodes belong to the frame's window.
    const owner = sheet.ownerNode ? owners.get(sheet.ownerNode as Element) : undefined;
    if (sheet.disabled || !owner) continue;
    sheets.push({ sheet: captureSheet(sheet, doc.baseURI), owner });
  }
  for (const sheet of doc.adoptedStyleSheets) {
    if (!sheet.disabled) sheets.push({ sheet: captureSheet(sheet, doc.baseURI), owner: null });
  }
  return sheets;
}

/**
 * Rules of `<style>` elements and constructed stylesheets, where CSS-in-JS libraries insert and delete
 * rules as components come and go, are copied into an array now (no text yet: about 0.3 µs a rule), so
 * the page's reaction to the click does not change them. A `<link>`ed stylesheet is a file the page
 * rarely edits through the CSSOM, and often the largest: its rules are read when serialising (a
 * stylesheet keeps its rules after its element is removed), which keeps the click handler short.
 */
function captureSheet(sheet: CSSStyleSheet, documentBase: string): CapturedSheet {
  const linked = sheet.ownerNode?.nodeName === 'LINK';
  return {
    rules: linked ? null : readableRules(sheet),
    live: linked ? sheet : null,
    href: sheet.href,
    baseUrl: sheet.href ?? documentBase,
    media: sheet.media.mediaText,
  };
}

function loadedFontKeys(doc: Document): Set<string> {
  const keys = new Set<string>();
  try {
    for (const face of doc.fonts) if (face.status === 'loaded') keys.add(fontFaceKey(face));
  } catch {
    // No FontFaceSet (an old or unusual document): fonts are then fetched in rule order.
  }
  return keys;
}

/** Attributes that can carry the content of a redacted element (its e-mail in a title, a mailto: link). */
const REVEALING_ATTRIBUTES = new Set([
  'title', 'alt', 'aria-label', 'aria-description', 'aria-valuetext', 'aria-placeholder', 'placeholder', 'value',
  'href', 'src', 'srcset', 'poster', 'content', 'label', 'datetime', 'cite', 'download', 'abbr', 'summary', 'xlink:title',
]);
const MEDIA = new Set(['img', 'picture', 'video', 'audio', 'canvas', 'object', 'embed', 'image']);

/** Redacted subtrees: text masked, fields emptied, media removed, revealing attributes dropped. */
function applyPrivacy(root: Element, ctx: FreezeContext): void {
  for (const marked of redactedRoots(root)) {
    ctx.stats.redactedSubtrees++;
    redactSubtree(marked);
  }
  // The root itself may be marked (a whole frame redacted from its own html element).
  if (root.hasAttribute(REDACT_ATTRIBUTE) || root.hasAttribute('data-demoshare-blur')) redactSubtree(root);
}

function redactSubtree(root: Element): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement?.localName;
    if (parent !== 'style' && parent !== 'script') (node as Text).data = maskText((node as Text).data);
  }
  for (const el of [root, ...root.querySelectorAll('*')]) {
    // Frames under a marked element were never read (freezeFrame): their empty box keeps the layout.
    if (el !== root && MEDIA.has(el.localName)) {
      el.remove();
      continue;
    }
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      const ours = name.startsWith('data-ds-') || name.startsWith('data-demoshare-');
      if (REVEALING_ATTRIBUTES.has(name) || (name.startsWith('data-') && !ours)) {
        if (name === 'href' && attr.value.startsWith('#')) continue; // an SVG <use> of a local icon
        el.removeAttribute(attr.name);
      } else if (name === 'style' && /url\(/i.test(attr.value)) {
        el.setAttribute('style', attr.value.replace(/[\w-]*background(?:-image)?\s*:[^;]*url\([^;]*;?/gi, ''));
      }
    }
    if (el.localName === 'input' || el.localName === 'textarea') clearField(el as HTMLInputElement);
  }
}

// ---------------------------------------------------------------------------------------------------
// Serialising

export interface FetchedResource {
  /** The address finally fetched (after redirects): what relative URLs in a stylesheet resolve against. */
  url: string;
  contentType: string;
  /** For 'css'. */
  text?: string;
  /** For 'image' and 'font'. */
  dataUrl?: string;
}

/** Fetches a resource with the extension's privileges (the background worker has host permissions). */
export type FetchResource = (url: string, kind: ResourceKind) => Promise<FetchedResource | null>;

export interface SerializeOptions {
  fetchResource: FetchResource;
  /** An image or font larger than this stays an absolute URL. Default 2 MB. */
  maxResourceBytes?: number;
  /** Images, fonts and canvases inlined per snapshot, in total. Default 10 MB. */
  maxTotalBytes?: number;
  /** How deep `@import`s are followed. Default 4. */
  maxImportDepth?: number;
  /** Resources fetched at once. Default 6. */
  concurrency?: number;
}

export interface SnapshotStats extends FreezeStats {
  /** Stylesheets written into the snapshot (documents, frames and shadow roots). */
  stylesheets: number;
  /** Stylesheets (cross-origin ones and their imports) fetched as text, and those that failed. */
  fetchedStylesheets: number;
  failedStylesheets: number;
  /** Cross-origin stylesheets left as `<link>`s (only in a fallback made before they were fetched). */
  linkedStylesheets: number;
  /** Images and fonts referenced, inlined as data: URLs, failed, and left as URLs for the budget. */
  resources: number;
  inlinedResources: number;
  failedResources: number;
  overBudgetResources: number;
  /** Bytes of images, fonts and canvases inlined (decoded size). */
  inlinedBytes: number;
  serializeMs: number;
  /** Made by fallbackHtml before everything was fetched. */
  fallback: boolean;
}

export interface SerializedSnapshot {
  html: string;
  /** UTF-8 size of `html`. */
  bytes: number;
  stats: SnapshotStats;
}

/**
 * What serialising has fetched so far, kept on the Frozen so that fallbackHtml can use it. The clone is
 * edited only when the HTML is assembled, once, synchronously: afterwards `result` is all there is.
 */
interface Progress {
  sheets: SheetCache;
  /** Image and font URL → data: URL. */
  inlined: Map<string, string>;
  inlinedBytes: number;
  counts: { inlined: number; failed: number; overBudget: number };
  result: SerializedSnapshot | null;
}

interface WantedResource {
  kind: 'image' | 'font';
  priority: number;
  order: number;
}

type Wanted = Map<string, WantedResource>;

const DEFAULTS = { maxResourceBytes: 2 * 1024 * 1024, maxTotalBytes: 10 * 1024 * 1024, maxImportDepth: 4, concurrency: 6 };
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
  // A fetch that throws, or is not a function at all, fails that one resource, never the snapshot.
  const fetchResource: FetchResource = (url, kind) =>
    Promise.resolve()
      .then(() => options.fetchResource(url, kind))
      .catch(() => null);
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
function fallbackHtml(frozen: Frozen): string {
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
