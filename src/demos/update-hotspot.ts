import type { AuthContext } from '../auth/permissions';
import { invalid, notFound } from '../core/errors';
import type { HotspotInput } from './create-hotspot';
import type { HotspotRow } from './demos.repo';
import * as chapters from './chapters.repo';
import * as repo from './demos.repo';
import { resolveAction } from './hotspot-action';
import { boxProblems, TOOLTIP_MAX } from './hotspots.schemas';
import { richTextField } from './rich-text';
import { editSteps, type StepEditDeps } from './step-edit';

/**
 * PATCH /v1/demos/:id/steps/:step_id/hotspots/:hotspot_id: moves, resizes or relabels a hotspot; the
 * resulting box must lie inside the step image. Returns it with the demo's steps.
 */
export async function updateHotspot(
  deps: StepEditDeps,
  auth: AuthContext,
  demoId: string,
  stepId: string,
  id: string,
  input: HotspotInput,
) {
  return editSteps(deps, auth, demoId, async (tx, demo, now) => {
    const all = await repo.listSteps(tx, demo.id);
    if (!all.some((s) => s.id === stepId)) throw notFound('Step');
    const current = await repo.findHotspot(tx, stepId, id);
    if (!current) throw notFound('Hotspot');
    const box = {
      x: input.x ?? current.x,
      y: input.y ?? current.y,
      width: input.width ?? current.width,
      height: input.height ?? current.height,
    };
    const problems = boxProblems(box);
    if (problems.length > 0) throw invalid('The hotspot must lie inside the step image', problems);
    const patch: Partial<HotspotRow> = { ...box, updatedAt: now };
    // A box moved by hand is where the author wants it: the player must stop placing it by selector.
    const moved = (['x', 'y', 'width', 'height'] as const).some((k) => box[k] !== current[k]);
    if (input.selector !== undefined) patch.selector = input.selector;
    else if (moved) patch.selector = null;
    if (input.label !== undefined) patch.label = input.label;
    if (input.tooltip !== undefined) patch.tooltip = input.tooltip;
    if (input.tooltip_html !== undefined) {
      const rich = input.tooltip_html === null ? undefined : richTextField(input.tooltip_html, TOOLTIP_MAX);
      patch.tooltipHtml = rich?.html ?? null;
      if (rich) patch.tooltip = rich.text;
    }
    if (input.action !== undefined) {
      const chapterIds = (await chapters.listChapters(tx, demo.id)).map((c) => c.id);
      Object.assign(patch, resolveAction(input.action, all, chapterIds));
    }
    await repo.updateStep(tx, stepId, { editedAt: now });
    return { hotspot: await repo.updateHotspot(tx, id, patch), steps: all };
  });
}
