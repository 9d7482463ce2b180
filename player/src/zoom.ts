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
  /** Scroll offsets that centre the hotspot (the browser clamps them to the picture). */
  left: number;
  top: number;
}

/**
 * The scale for a `capture`-sized picture in a `frame`: by default it fills the frame's height (never less
 * than READABLE); smaller when that shows the whole hotspot and stays readable; a hotspot too large to be
 * seen whole at a readable scale gets the default, centred. Never smaller than fitting the whole picture.
 */
export function zoomTo(capture: { width: number; height: number }, frame: { width: number; height: number }, spot: Box | null): Zoom {
  const fit = Math.min(frame.width / capture.width, frame.height / capture.height);
  let scale = Math.min(LARGEST, Math.max(READABLE, frame.height / capture.height));
  if (spot && spot.width > 0 && spot.height > 0) {
    const whole = Math.min((frame.width - 2 * MARGIN) / (spot.width * capture.width), (frame.height - 2 * MARGIN) / (spot.height * capture.height));
    if (whole < scale && whole >= READABLE) scale = whole;
  }
  scale = Math.max(scale, fit);
  const width = Math.round(capture.width * scale);
  const height = Math.round(capture.height * scale);
  const centre = spot ? { x: spot.x + spot.width / 2, y: spot.y + spot.height / 2 } : { x: 0.5, y: 0.5 };
  return {
    scale,
    width,
    height,
    left: Math.max(0, Math.round(centre.x * width - frame.width / 2)),
    top: Math.max(0, Math.round(centre.y * height - frame.height / 2)),
  };
}
