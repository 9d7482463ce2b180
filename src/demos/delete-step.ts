import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import * as repo from './demos.repo';
import { editSteps, keepsOneStep, type StepEditDeps } from './step-edit';

/** DELETE /v1/demos/:id/steps/:step_id: the step goes with its hotspots; the later ones move up. */
export async function deleteStep(deps: StepEditDeps, auth: AuthContext, demoId: string, stepId: string) {
  await editSteps(deps, auth, demoId, async (tx, demo, now) => {
    const all = await repo.listSteps(tx, demo.id);
    const step = all.find((s) => s.id === stepId);
    if (!step) throw notFound('Step');
    keepsOneStep(demo, all.length - 1);
    await repo.deleteSteps(tx, demo.id, [step]);
    await repo.renumber(
      tx,
      all.filter((s) => s.id !== stepId),
      now,
    );
  });
}
