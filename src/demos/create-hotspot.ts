import type { z } from 'zod';
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import { newId } from '../core/ids';
import * as chapters from './chapters.repo';
import * as repo from './demos.repo';
import { resolveAction } from './hotspot-action';
import { TOOLTIP_MAX, type patchHotspotBody } from './hotspots.schemas';
import { richTextField } from './rich-text';
import { editSteps, type StepEditDeps } from './step-edit';

/** A hotspot's fields as a request gives them: all of them on create, any of them on a patch. */
export type HotspotInput = z.output<typeof patchHotspotBody>;

/**
 * POST /v1/demos/:id/steps/:step_id/hotspots: a hotspot on the step (its box already checked by the schema).
 * Returns it with the demo's steps, which number its `goto` target.
 */
export async function createHotspot(deps: StepEditDeps, auth: AuthContext, demoId: string, stepId: string, input: HotspotInput) {
  return editSteps(deps, auth, demoId, async (tx, demo, now) => {
    const all = await repo.listSteps(tx, demo.id);
    const step = all.find((s) => s.id === stepId);
    if (!step) throw notFound('Step');
    const chapterIds = (await chapters.listChapters(tx, demo.id)).map((c) => c.id);
    const action = resolveAction(input.action, all, chapterIds);
    const rich = input.tooltip_html ? richTextField(input.tooltip_html, TOOLTIP_MAX) : undefined;
    const [row] = await repo.insertHotspots(tx, [
      {
        id: newId('hotspot'),
        stepId: step.id,
        demoId: demo.id,
        x: input.x!,
        y: input.y!,
        width: input.width!,
        height: input.height!,
        selector: input.selector ?? null,
        label: input.label ?? '',
        tooltip: rich ? rich.text : (input.tooltip ?? ''),
        tooltipHtml: rich?.html ?? null,
        ...action,
        createdAt: now,
        updatedAt: now,
      },
    ]);
    await repo.updateStep(tx, step.id, { editedAt: now });
    return { hotspot: row!, steps: all };
  });
}
