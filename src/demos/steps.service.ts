import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import { createHotspot } from './create-hotspot';
import { createStep } from './create-step';
import { deleteHotspot } from './delete-hotspot';
import { deleteStep } from './delete-step';
import { loadAsset } from './asset-bytes';
import * as repo from './demos.repo';
import { replaceSteps } from './replace-steps';
import { setStepImage } from './set-step-image';
import type { StepEditDeps } from './step-edit';
import { updateHotspot } from './update-hotspot';
import { updateStep } from './update-step';

/** What the editor's steps service is built from. */
export type StepsDeps = StepEditDeps;

/**
 * The demo editor: steps, hotspots and the assets they show. Each edit is a file of its own (create-step.ts,
 * replace-steps.ts, update-hotspot.ts, ...), run through `editSteps` (step-edit.ts): the demo locked, one
 * transaction, demo.updated recorded, `tags.demo(id)` announced after the commit.
 *
 * @example
 * ```ts
 * const steps = createStepsService(kernel);
 * const step = await steps.createStep(auth, demoId, { title: 'Open settings' });
 * await steps.createHotspot(auth, demoId, step.id, { x: 0.1, y: 0.2, width: 0.3, height: 0.1, label: 'Settings' });
 * ```
 */
export function createStepsService(deps: StepsDeps) {
  /** An asset of a demo of the caller's workspace (GET /v1/demos/:id/assets/:asset_id). */
  async function getAsset(auth: AuthContext, demoId: string, assetId: string) {
    const { db } = deps.database;
    const demo = await repo.findDemo(db, auth.workspaceId, demoId);
    if (!demo) throw notFound('Demo');
    const asset = await loadAsset(db, deps.assetStore, demoId, assetId);
    if (!asset) throw notFound('Asset');
    return asset;
  }

  /** The demo's step ids and numbers, for answers that number action targets. */
  async function stepNumbers(auth: AuthContext, demoId: string) {
    const { db } = deps.database;
    const demo = await repo.findDemo(db, auth.workspaceId, demoId);
    if (!demo) throw notFound('Demo');
    return new Map((await repo.listSteps(db, demoId)).map((s) => [s.id, s.position]));
  }

  return {
    stepNumbers,
    createStep: createStep.bind(null, deps),
    updateStep: updateStep.bind(null, deps),
    setStepImage: setStepImage.bind(null, deps),
    deleteStep: deleteStep.bind(null, deps),
    replaceSteps: replaceSteps.bind(null, deps),
    createHotspot: createHotspot.bind(null, deps),
    updateHotspot: updateHotspot.bind(null, deps),
    deleteHotspot: deleteHotspot.bind(null, deps),
    getAsset,
  };
}

export type StepsService = ReturnType<typeof createStepsService>;
