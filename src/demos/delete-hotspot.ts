import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import * as repo from './demos.repo';
import { editSteps, type StepEditDeps, stepOf } from './step-edit';

/** DELETE /v1/demos/:id/steps/:step_id/hotspots/:hotspot_id. */
export async function deleteHotspot(deps: StepEditDeps, auth: AuthContext, demoId: string, stepId: string, id: string) {
  await editSteps(deps, auth, demoId, async (tx, demo, now) => {
    await stepOf(tx, demo.id, stepId);
    const current = await repo.findHotspot(tx, stepId, id);
    if (!current) throw notFound('Hotspot');
    await repo.deleteHotspot(tx, id);
    await repo.updateStep(tx, stepId, { editedAt: now });
  });
}
