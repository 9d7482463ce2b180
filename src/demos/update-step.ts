import type { AuthContext } from '../auth/permissions';
import type { StepText } from './create-step';
import * as repo from './demos.repo';
import { editSteps, type StepEditDeps, stepOf } from './step-edit';

/** PATCH /v1/demos/:id/steps/:step_id: the step's text; marks it edited by a person. */
export async function updateStep(deps: StepEditDeps, auth: AuthContext, demoId: string, stepId: string, input: StepText) {
  return editSteps(deps, auth, demoId, async (tx, demo, now) => {
    await stepOf(tx, demo.id, stepId);
    return repo.updateStep(tx, stepId, {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.pageUrl !== undefined ? { pageUrl: input.pageUrl } : {}),
      editedAt: now,
      updatedAt: now,
    });
  });
}
