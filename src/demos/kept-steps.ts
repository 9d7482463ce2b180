// Regenerate with keep_edited_steps: which fresh steps show what a kept step already shows.
import type { GeneratedStep } from '../generation/generation.types';

/** What a kept step shows: its page and the boxes (and elements) of its hotspots. */
export interface KeptStep {
  id: string;
  pageUrl: string | null;
  hotspots: { selector: string | null; x: number; y: number; width: number; height: number }[];
}

/** A box moved by hand has lost its selector; it still shows the same element when it mostly overlaps. */
const SAME_BOX = 0.5;

const samePage = (a: string | null, b: string) => !!a && a.replace(/\/+(?=$|[?#])/, '') === b.replace(/\/+(?=$|[?#])/, '');

function overlap(a: KeptStep['hotspots'][number], b: { x: number; y: number; width: number; height: number }) {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const shared = w * h;
  return shared / (a.width * a.height + b.width * b.height - shared);
}

/**
 * For each fresh step, the kept step it would duplicate (same page, same target element: the selector of
 * the fresh step's first hotspot, or a box that mostly overlaps it), else null. The person's step wins:
 * the fresh one is dropped. Each kept step stands in for one fresh step at most, the first in order.
 */
export function keptDuplicates(kept: KeptStep[], fresh: GeneratedStep[]): (string | null)[] {
  const free = new Set(kept.map((k) => k.id));
  return fresh.map((step) => {
    const target = step.hotspots[0];
    if (!target) return null;
    const match = kept.find(
      (k) =>
        free.has(k.id) &&
        samePage(k.pageUrl, step.pageUrl) &&
        k.hotspots.some((h) => (h.selector && target.selector ? h.selector === target.selector : overlap(h, target) >= SAME_BOX)),
    );
    if (!match) return null;
    free.delete(match.id);
    return match.id;
  });
}
