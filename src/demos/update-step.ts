import type { AuthContext } from '../auth/permissions';
import * as chapters from './chapters.repo';
import { checkPagePatches } from './page-patches';
import type { StepText } from './create-step';
import * as repo from './demos.repo';
import { editSteps, type StepEditDeps } from './step-edit';
import { resolveStepStory } from './step-story';
import { notFound } from '../core/errors';

/**
 * PATCH /v1/demos/:id/steps/:step_id: the step's text and story fields; marks it edited by a person.
 * Answers it with the demo's steps, which number its buttons' targets.
 */
export async function updateStep(deps: StepEditDeps, auth: AuthContext, demoId: string, stepId: string, input: StepText) {
  return editSteps(deps, auth, demoId, async (tx, demo, now) => {
    const all = await repo.listSteps(tx, demo.id);
    const current = all.find((s) => s.id === stepId);
    if (!current) throw notFound('Step');
    const chapterIds = (await chapters.listChapters(tx, demo.id)).map((c) => c.id);
    // Page patches: selectors the server can match, image assets of this demo (400 naming the patch; helper F).
    if (input.patches) await checkPagePatches(tx, demo.id, input.patches);
    const story = resolveStepStory(input, current, all, chapterIds);
    const step = await repo.updateStep(tx, stepId, {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.pageUrl !== undefined ? { pageUrl: input.pageUrl } : {}),
      ...story,
      editedAt: now,
      updatedAt: now,
    });
    return { step, steps: all };
  });
}
