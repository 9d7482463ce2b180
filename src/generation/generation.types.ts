/**
 * The contract between demo generation (capture a web address, write step text) and the demos module
 * that stores its result. Generation knows nothing of the database; demos knows nothing of browsers.
 */
import type { AiSettings } from './ai-chat';

export type CaptureMode = 'chromium' | 'html';

/** A box in pixels of the captured page's viewport/screenshot. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type ElementKind = 'heading' | 'link' | 'button' | 'input' | 'nav' | 'form' | 'image' | 'pricing' | 'other';

/** A visible, meaningful element found on a captured page. */
export interface CapturedElement {
  kind: ElementKind;
  /** Visible text, aria-label, placeholder or alt: whatever a person would read. */
  text: string;
  /** A CSS selector that finds the element again in the snapshot. */
  selector: string;
  /** Pixels in page (document) coordinates; absent in the HTML capture mode, which has no layout. */
  box?: PixelBox;
  /** A part to point at when the element is too large for a hotspot (a table's header row). */
  focus?: { selector: string; box?: PixelBox };
  /** Chromium mode: the number the capture stamped on the element in the live page, to scroll to it for its screenshot. */
  probe?: number;
  href?: string;
  /** Heading level, input type, etc. */
  detail?: string;
  /** Chromium mode: a heading's font size in pixels (how prominent it is). */
  size?: number;
  /** Nearby prose a step can quote: the paragraph after a heading, a form's intro... */
  context?: string;
  /** What the element groups: a nav's link texts, a form's field labels, a pricing block's plans. */
  items?: string[];
}

/** A viewport-sized screenshot of the page taken with its top edge at `top` (page pixels). */
export interface CapturedFrame {
  top: number;
  screenshot: Buffer;
}

export interface CapturedPage {
  url: string;
  title: string;
  description: string;
  /** PNG screenshot of the viewport (Chromium mode). */
  screenshot?: Buffer;
  width: number;
  height: number;
  /** Sanitised HTML snapshot (no scripts, no event handlers, absolute URLs), shown in a sandboxed frame. */
  html?: string;
  elements: CapturedElement[];
  /** Screenshots further down the page (Chromium mode); `screenshot` is the one at the top. */
  frames?: CapturedFrame[];
  /** The http(s) links of the page, absolute, in document order (the link picker keeps same-origin ones). */
  links?: Array<{ href: string; text: string; inNav: boolean }>;
}

/** A hotspot in fractions (0..1) of the step image, as DESIGN.md defines it. */
export interface GeneratedHotspot {
  x: number;
  y: number;
  width: number;
  height: number;
  selector: string | null;
  label: string;
  tooltip: string;
  action: { type: 'next' | 'goto' | 'url'; target?: string | number | null };
}

export interface GeneratedStep {
  title: string;
  description: string;
  pageUrl: string;
  image?: { data: Buffer; contentType: 'image/png' | 'image/jpeg' | 'image/webp'; width: number; height: number };
  /** Where the image's top edge sits on the captured page, in page pixels (0 for the first screen). */
  imageTop?: number;
  /** Sanitised snapshot HTML for the HTML capture mode. */
  html?: string;
  width: number;
  height: number;
  hotspots: GeneratedHotspot[];
}

export interface GenerationResult {
  captureMode: CaptureMode;
  /** Where the step text came from. */
  writer: 'builtin' | 'ai';
  /** A title suggestion for the demo (page title). */
  title: string;
  steps: GeneratedStep[];
  /** The addresses captured, in visit order (the start page first). */
  pages: string[];
  /** Non-fatal problems worth showing (AI fell back to built-in, a linked page failed...). */
  warnings: string[];
}

export interface GenerationOptions {
  url: string;
  /** Further same-origin pages to follow (default 4). */
  maxPages?: number;
  /** Hard deadline for the whole generation. */
  timeoutMs?: number;
  /**
   * `html`: capture without the browser. `chromium`: with the browser, failing when this server has none.
   * Absent: the browser when there is one, else HTML.
   */
  captureMode?: CaptureMode;
  /** The workspace's model (Settings → AI), instead of the instance's AI_* one; absent: the instance's. */
  ai?: AiSettings | null;
}
