import { describe, expect, it } from 'vitest';
import { along, planStep, stepFrames } from './render-timeline';

describe('the render timeline', () => {
  it('gives each step its share of frames, so that the video lasts steps × pace to the frame', () => {
    for (const [pace, fps] of [[1000, 20], [1800, 10], [3333, 20], [1234, 10]] as const) {
      const counts = Array.from({ length: 17 }, (_, i) => stepFrames(i, pace, fps));
      expect(counts.reduce((sum, c) => sum + c.count, 0)).toBe(Math.round((17 * pace * fps) / 1000));
      for (let i = 1; i < counts.length; i++) expect(counts[i]!.start).toBe(counts[i - 1]!.start + counts[i - 1]!.count);
    }
  });

  it('plans a pause, a move to the target, a highlighted hold and a click that fill the step exactly', () => {
    const from = { x: 640, y: 360 };
    const to = { x: 200, y: 120 };
    for (const frames of [10, 20, 36, 60, 300]) {
      const plan = planStep(frames, from, to, 20);
      expect(plan.reduce((sum, s) => sum + s.frames, 0)).toBe(frames);
      expect(plan.some((s) => s.kind === 'move')).toBe(true);
      expect(plan.at(-1)).toMatchObject({ kind: 'still', pressed: true, highlight: true });
    }
    expect(planStep(60, from, to, 20, true).some((s) => s.kind === 'still' && s.pressed)).toBe(false);
    expect(planStep(60, from, null, 20)).toEqual([{ kind: 'still', frames: 60, pressed: false, highlight: false }]);
  });

  it('moves the cursor from where it was to the target, eased', () => {
    const from = { x: 0, y: 0 };
    const to = { x: 100, y: 50 };
    expect(along(from, to, 10, 10)).toEqual(to);
    const steps = Array.from({ length: 10 }, (_, i) => along(from, to, i + 1, 10).x);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    // Slow at both ends: the first and last moves are shorter than the middle one.
    expect(steps[0]!).toBeLessThan(steps[5]! - steps[4]!);
  });
});
