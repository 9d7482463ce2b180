// A box on a step's image, in fractions of its size: shared by the hotspot canvas, the blur layer and the
// snapshot frame without any of them importing another's component.

/** A rectangle in fractions (0–1) of the step's image. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const MIN_SIZE = 0.02;
const round = (v: number) => Math.round(v * 10_000) / 10_000;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Moves or resizes a box by a pointer delta in fractions, keeping it inside the image. */
export function applyDrag(start: Box, mode: 'move' | 'resize', dx: number, dy: number): Box {
  if (mode === 'move') {
    return { ...start, x: round(clamp(start.x + dx, 0, 1 - start.width)), y: round(clamp(start.y + dy, 0, 1 - start.height)) };
  }
  return {
    ...start,
    width: round(clamp(start.width + dx, MIN_SIZE, 1 - start.x)),
    height: round(clamp(start.height + dy, MIN_SIZE, 1 - start.y)),
  };
}
