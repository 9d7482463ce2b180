// A hotspot's action as stored: `next`, `goto` a step (kept by id), or `url` (http(s) only).
import { invalid } from '../core/errors';
import type { StepRow } from './demos.repo';
import type { HotspotAction } from './demos.tables';
import type { HotspotActionInput } from './hotspots.schemas';

/** Checks a hotspot action against the demo's steps; `goto` targets are stored as step ids. */
export function resolveAction(action: HotspotActionInput | undefined, steps: StepRow[]) {
  const type: HotspotAction = action?.type ?? 'next';
  const target = action?.target ?? null;
  if (type === 'next') return { actionType: type, actionTarget: null };
  if (type === 'goto') {
    const step =
      typeof target === 'number'
        ? steps.find((s) => s.position === target)
        : typeof target === 'string'
          ? steps.find((s) => s.id === target)
          : undefined;
    if (!step) {
      throw invalid('A goto action needs the number or id of a step of this demo', [
        { field: 'action.target', message: 'is not a step of this demo' },
      ]);
    }
    return { actionType: type, actionTarget: step.id };
  }
  if (typeof target !== 'string' || !isHttpUrl(target)) {
    throw invalid('A url action needs an http(s) address', [{ field: 'action.target', message: 'must be an http(s) URL' }]);
  }
  return { actionType: type, actionTarget: target };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
