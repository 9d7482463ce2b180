// The frames of a render, planned before any is taken: each step gets exactly pace × fps frames, so the length is steps × pace.

/** One stretch of a step's frames: the cursor still (one picture repeated) or moving (one picture per frame). */
export type Segment =
  | { kind: 'still'; frames: number; pressed: boolean; highlight: boolean }
  | { kind: 'move'; frames: number; from: Point; to: Point };

export interface Point {
  x: number;
  y: number;
}

/** Frames per second: MP4 moves smoothly enough at 20; a GIF's size grows with its frames, 10 keeps it small. */
export const FPS = { mp4: 20, gif: 10 } as const;

/** Where step `index` (0-based) starts and ends, in frames: rounding never adds up, whatever the pace. */
export function stepFrames(index: number, paceMs: number, fps: number): { start: number; count: number } {
  const at = (i: number) => Math.round((i * paceMs * fps) / 1000);
  return { start: at(index), count: at(index + 1) - at(index) };
}

/**
 * A step's segments: a short pause on arrival, the cursor gliding to the hotspot, a hold with the
 * highlight on, then the click (not on the last step). A step without a target holds still.
 *
 * @example
 * planStep(60, { x: 640, y: 360 }, { x: 200, y: 120 }, 20);
 * // [{ still 6 }, { move 18 }, { still 31, highlight }, { still 5, pressed, highlight }]
 */
export function planStep(frames: number, from: Point, to: Point | null, fps: number, last = false): Segment[] {
  if (!to || frames < 4) return [{ kind: 'still', frames, pressed: false, highlight: !!to }];
  const pause = Math.min(Math.round(0.3 * fps), Math.floor(frames * 0.1));
  const move = Math.max(1, Math.min(Math.round(0.9 * fps), Math.floor(frames * 0.3)));
  // The last step is not clicked: nothing follows it.
  const click = last ? 0 : Math.min(Math.round(0.25 * fps), Math.floor(frames * 0.1));
  const hold = frames - pause - move - click;
  const out: Segment[] = [];
  if (pause > 0) out.push({ kind: 'still', frames: pause, pressed: false, highlight: false });
  out.push({ kind: 'move', frames: move, from, to });
  if (hold > 0) out.push({ kind: 'still', frames: hold, pressed: false, highlight: true });
  if (click > 0) out.push({ kind: 'still', frames: click, pressed: true, highlight: true });
  return out;
}

/** Ease in and out (cubic): a hand's movement, slow at both ends. */
export function ease(t: number): number {
  return t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2;
}

/** The cursor at frame `i` (1-based) of a move of `n` frames. */
export function along(from: Point, to: Point, i: number, n: number): Point {
  const k = ease(Math.min(1, i / n));
  return { x: Math.round(from.x + (to.x - from.x) * k), y: Math.round(from.y + (to.y - from.y) * k) };
}
