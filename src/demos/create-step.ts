import type { AuthContext } from '../auth/permissions';
import { newId } from '../core/ids';
import * as repo from './demos.repo';
import { storeImage } from './step-assets';
import { editSteps, type StepEditDeps } from './step-edit';

/** A step's text as a request gives it; undefined leaves a field as it is. */
export interface StepText {
  title?: string;
  description?: string;
  pageUrl?: string | null;
}

/** POST /v1/demos/:id/steps: a blank step, or one showing `image`, at `number` (default: the end). */
export async function createStep(
  deps: StepEditDeps,
  auth: AuthContext,
  demoId: string,
  input: StepText & { number?: number; image?: Buffer },
) {
  return editSteps(deps, auth, demoId, async (tx, demo, now) => {
    const existing = await repo.listSteps(tx, demo.id);
    const image = input.image ? await storeImage(tx, demo, input.image, now) : undefined;
    const at = Math.min(input.number ?? existing.length + 1, existing.length + 1);
    const [step] = await repo.insertSteps(tx, [
      {
        id: newId('step'),
        demoId: demo.id,
        position: at,
        title: input.title ?? '',
        description: input.description ?? '',
        pageUrl: input.pageUrl ?? null,
        imageAssetId: image?.id ?? null,
        width: image?.width ?? null,
        height: image?.height ?? null,
        editedAt: now,
        createdAt: now,
        updatedAt: now,
      },
    ]);
    const ordered = [...existing];
    ordered.splice(at - 1, 0, step!);
    await repo.renumber(tx, ordered, now);
    return step!;
  });
}
