import type { AuthContext } from '../auth/permissions';
import * as repo from './demos.repo';
import { insertPlacedAsset, placeImage } from './step-assets';
import { editSteps, type StepEditDeps, stepOf } from './step-edit';

/** POST /v1/demos/:id/steps/:step_id/image: a new image for the step; the old one goes unless a version keeps it. */
export async function setStepImage(deps: StepEditDeps, auth: AuthContext, demoId: string, stepId: string, bytes: Buffer) {
  // The blob before the transaction: a store that is down is a 503 before anything is locked or written.
  const image = await placeImage(deps.assetStore, bytes);
  return editSteps(deps, auth, demoId, async (tx, demo, now) => {
    const step = await stepOf(tx, demo.id, stepId);
    const imageId = await insertPlacedAsset(tx, demo, image.placed, now);
    const updated = await repo.updateStep(tx, step.id, {
      imageAssetId: imageId,
      width: image.width,
      height: image.height,
      editedAt: now,
      updatedAt: now,
    });
    if (step.imageAssetId) await repo.deleteAssets(tx, demo.id, [step.imageAssetId]);
    return updated;
  });
}
