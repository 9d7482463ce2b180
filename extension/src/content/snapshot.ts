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
 * optionally closed shadow roots). This module is the API and the freezing half; serialising is in
 * snapshot-serialize.ts, the CSS work in snapshot-css.ts, the shared shapes in snapshot-model.ts.
 */
import { isRedacted, isSensitiveField, maskText, REDACT_ATTRIBUTE, redactedRoots } from '../shared/privacy';
import { type CapturedSheet, fontFaceKey, readableRules } from './snapshot-css';
import {
  FRAME_ATTRIBUTE,
  type FreezeStats,
  type Frozen,
  type FrozenSheet,
  SCROLL_ATTRIBUTE,
  SHADOW_ATTRIBUTE,
  TARGET_ATTRIBUTE,
} from './snapshot-model';
import { fallbackHtml } from './snapshot-serialize';

export type { ResourceKind } from './snapshot-css';
export {
  FRAME_ATTRIBUTE,
  type FetchedResource,
  type FetchResource,
  type FreezeStats,
  type Frozen,
  SCROLL_ATTRIBUTE,
  type SerializedSnapshot,
  type SerializeOptions,
  SHADOW_ATTRIBUTE,
  type SnapshotStats,
  TARGET_ATTRIBUTE,
  URL_ATTRIBUTE,
  VIEWPORT_ATTRIBUTE,
} from './snapshot-model';
export { serializeFrozen } from './snapshot-serialize';

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
      freezeSelect(live as HTMLSelectElement, clone as HTMLSelectElement, ctx);
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

/**
 * Which options are selected is not copied by cloning: read from the live select, written as attributes.
 * A sensitive select (a card's expiry month) shows its first option instead.
 */
function freezeSelect(live: HTMLSelectElement, clone: HTMLSelectElement, ctx: FreezeContext): void {
  const cloned = clone.options;
  if (isSensitiveField(clone)) {
    ctx.stats.sensitiveFields++;
    for (const option of cloned) option.removeAttribute('selected');
    clone.selectedIndex = cloned.length > 0 ? 0 : -1;
    return;
  }
  const options = live.options;
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
