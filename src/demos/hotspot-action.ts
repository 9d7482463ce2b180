// The action of a hotspot or a story button as stored (story.schemas.ts ACTION_TYPES; answered by story-answers.schemas.ts):
// `goto` and `submit` keep their step by id (its number changes when steps move), `chapter` its chapter's
// id, `url` and `demo` an http(s) address; `next`, `end` and `restart` nothing.
import { invalid } from '../core/errors';
import { httpUrl } from '../core/text';
import type { StepRow } from './demos.repo';
import type { HotspotAction } from './demos.tables';
import type { HotspotActionInput } from './hotspots.schemas';

/** A stored action: `actionTarget` as the hotspot column holds it. */
export interface ResolvedAction {
  actionType: HotspotAction;
  actionTarget: string | null;
}

/**
 * Checks an action against the demo's steps and chapters; step targets are stored as step ids. `field` is
 * where the action sits in the request, for the 400's details.
 */
export function resolveAction(
  action: HotspotActionInput | undefined,
  steps: Pick<StepRow, 'id' | 'position'>[],
  chapterIds: readonly string[] = [],
  field = 'action',
): ResolvedAction {
  const type: HotspotAction = action?.type ?? 'next';
  const target = action?.target ?? null;
  const at = `${field}.target`;
  switch (type) {
    case 'next':
    case 'end':
    case 'restart':
      return { actionType: type, actionTarget: null };
    case 'goto':
    case 'submit': {
      // `submit` without a target goes on as `next`.
      if (type === 'submit' && target === null) return { actionType: type, actionTarget: null };
      const step =
        typeof target === 'number'
          ? steps.find((s) => s.position === target)
          : typeof target === 'string'
            ? steps.find((s) => s.id === target)
            : undefined;
      if (!step) {
        throw invalid(`A ${type} action needs the number or id of a step of this demo`, [
          { field: at, message: 'is not a step of this demo' },
        ]);
      }
      return { actionType: type, actionTarget: step.id };
    }
    case 'chapter':
      if (typeof target !== 'string' || !chapterIds.includes(target)) {
        throw invalid('A chapter action needs the id of a chapter of this demo', [
          { field: at, message: 'is not a chapter of this demo' },
        ]);
      }
      return { actionType: type, actionTarget: target };
    case 'url':
    case 'demo':
      if (typeof target !== 'string' || !httpUrl.safeParse(target).success) {
        throw invalid(`A ${type} action needs an http(s) address`, [{ field: at, message: 'must be an http(s) URL' }]);
      }
      return { actionType: type, actionTarget: target };
  }
}
