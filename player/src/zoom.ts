/**
 * Phones: a desktop capture scaled to a 390 px screen is unreadable. There the picture is shown at a
 * readable scale in a frame that scrolls (pan, and the browser's own pinch-zoom), centred on the hotspot.
 */

/** Below this width (CSS pixels) the player zooms; the same breakpoint as the compact layout in player.css. */
export const PHONE_MAX_WIDTH = 640;
/** The smallest scale at which a desktop capture's body text stays readable (14 px text → 10 px). */
const READABLE = 0.7;
/** Never magnified past this: a small capture is not blown up. */
const LARGEST = 1.5;
/** Room kept around the hotspot inside the visible frame (for the ring, and to show it is a box). */
const MARGIN = 24;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Zoom {
  scale: number;
  width: number;
  height: number;
  /** Scroll offsets that centre the hotspot, kept inside the picture and keeping the whole hotspot in view. */
  left: number;
  top: number;
}

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(value, max));

/**
 * Along one axis: the offset that centres the hotspot (`start`…`end`, in pixels of the picture), moved
 * just enough to keep the whole of it inside the `view` (with the margin where there is room for it),
 * and never past the picture's edges.
 */
function pan(start: number, end: number, size: number, view: number): number {
  const room = Math.min(MARGIN, Math.max(0, (view - (end - start)) / 2));
  const centred = (start + end) / 2 - view / 2;
  // Its start wins over its end for one too large to be seen whole (only at a pinch-zoom's scale).
  const kept = Math.min(start - room, Math.max(centred, end + room - view));
  return Math.round(clamp(kept, 0, Math.max(0, size - view)));
}

/**
 * The scale for a `capture`-sized picture in a `frame`: by default it fills the frame's height (never less
 * than READABLE); smaller whenever that is what shows the whole hotspot: what the step is about is never
 * cut off (a full-width bar is shown whole, smaller; the viewer pinch-zooms for detail). Never smaller
 * than fitting the whole picture, which shows any hotspot whole.
 */
export function zoomTo(capture: { width: number; height: number }, frame: { width: number; height: number }, spot: Box | null): Zoom {
  const fit = Math.min(frame.width / capture.width, frame.height / capture.height);
  let scale = Math.min(LARGEST, Math.max(READABLE, frame.height / capture.height));
  // A frame with no room yet (not laid out, or all of it taken by the text) keeps the readable scale.
  if (spot && spot.width > 0 && spot.height > 0 && frame.width > 0 && frame.height > 0) {
    const margin = (size: number) => Math.max(size - 2 * MARGIN, size * 0.8);
    const whole = Math.min(margin(frame.width) / (spot.width * capture.width), margin(frame.height) / (spot.height * capture.height));
    scale = Math.min(scale, whole);
  }
  scale = Math.max(scale, fit);
  const width = Math.round(capture.width * scale);
  const height = Math.round(capture.height * scale);
  const box = spot ?? { x: 0.5, y: 0.5, width: 0, height: 0 };
  return {
    scale,
    width,
    height,
    left: pan(box.x * width, (box.x + box.width) * width, width, frame.width),
    top: pan(box.y * height, (box.y + box.height) * height, height, frame.height),
  };
}
