/**
 * The shapes shared by the two halves of a DOM snapshot (snapshot.ts freezes, snapshot-serialize.ts
 * serialises) and the attributes a snapshot carries for the server and the player.
 */
import type { CapturedSheet, ResourceKind, SheetCache } from './snapshot-css';

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

/** A media element's current picture, copied at freeze time and encoded later. */
export interface FrozenCanvas {
  /** The `<img>` that replaced the canvas or video in the clone. */
  element: HTMLImageElement;
  copy: HTMLCanvasElement | null;
  /** A video's poster, used when no frame could be copied. */
  fallbackUrl: string | null;
}

/** An `<img>` of the clone and the candidate the browser was showing (its currentSrc). */
export interface FrozenImage {
  element: HTMLImageElement;
  url: string;
  hadSrcset: boolean;
  naturalWidth: number;
  naturalHeight: number;
}

/** A stylesheet and the element of the clone it came from (null for adopted stylesheets). */
export interface FrozenSheet {
  sheet: CapturedSheet;
  owner: Element | null;
}

/** An iframe of the page: the div standing in for it, and its document if it could be read. */
export interface FrozenFrame {
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
  /** A resource not fetched within this many milliseconds is given up (left as a URL). Default 10 000. */
  resourceTimeoutMs?: number;
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
export interface Progress {
  sheets: SheetCache;
  /** Image and font URL → data: URL. */
  inlined: Map<string, string>;
  inlinedBytes: number;
  counts: { inlined: number; failed: number; overBudget: number };
  result: SerializedSnapshot | null;
}
