/**
 * Where hotspots of snapshot steps go. HTML capture has no layout, so their boxes are placeholders and
 * their selectors name the elements; the player and the web app's editor both put each hotspot on its
 * element with these rules, so the editor shows what viewers will see.
 */

/** Around an element, in the snapshot's pixels (as generation pads the boxes it measures). */
const PADDING = 6;
/** An element below the first screen is scrolled to this far from the top (as captures are). */
const SCROLL_MARGIN = 120;

export interface FractionBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Scrolls the snapshot frame to the first element found when it is below the first screen, and returns,
 * per selector, the element's padded box in fractions of the frame, or null for a hotspot that keeps its
 * own box (no selector; element missing, hidden, out of view, or a selector this browser does not know).
 */
export function placeOnElements(
  frame: HTMLIFrameElement,
  selectors: ReadonlyArray<string | null | undefined>,
  width: number,
  height: number,
): Array<FractionBox | null> {
  const doc = frame.contentDocument;
  const view = frame.contentWindow;
  if (!doc || !view) return selectors.map(() => null);
  // Instant whatever the site's `scroll-behavior: smooth` says: boxes are read right after scrolling.
  view.scrollTo({ left: 0, top: 0, behavior: 'instant' });
  const elements = selectors.map((selector) => {
    if (!selector) return null;
    try {
      const el = doc.querySelector(selector);
      const box = el?.getBoundingClientRect();
      return box && box.width > 0 && box.height > 0 ? el : null;
    } catch {
      return null;
    }
  });
  const first = elements.find((el) => el !== null);
  if (first) {
    const box = first.getBoundingClientRect();
    if (box.top + Math.min(box.height, height) > height) view.scrollTo({ left: 0, top: Math.max(0, box.top - SCROLL_MARGIN), behavior: 'instant' });
  }
  return elements.map((el) => {
    if (!el) return null;
    const box = el.getBoundingClientRect();
    const left = clamp((box.left - PADDING) / width, 0, 1);
    const top = clamp((box.top - PADDING) / height, 0, 1);
    const right = clamp((box.right + PADDING) / width, 0, 1);
    const bottom = clamp((box.bottom + PADDING) / height, 0, 1);
    if (right - left <= 0 || bottom - top <= 0) return null;
    return { x: left, y: top, width: right - left, height: bottom - top };
  });
}
