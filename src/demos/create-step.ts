import type { AuthContext } from '../auth/permissions';
import { newId } from '../core/ids';
import * as chapters from './chapters.repo';
import { checkPagePatches } from './page-patches';
import * as repo from './demos.repo';
import { insertPlacedAsset, placeImage } from './step-assets';
import { editSteps, type StepEditDeps } from './step-edit';
import { resolveStepStory, type StepStoryInput } from './step-story';

/** A step's text and story fields as a request gives them; undefined leaves a field as it is. */
export interface StepText extends StepStoryInput {
  title?: string;
  description?: string;
  pageUrl?: string | null;
}

/**
 * POST /v1/demos/:id/steps: a blank step, or one showing `image`, at `number` (default: the end). Answers
 * it with the demo's steps, which number its buttons' targets.
 */
export async function createStep(
  deps: StepEditDeps,
  auth: AuthContext,
  demoId: string,
  input: StepText & { number?: number; image?: Buffer },
) {
  // The blob before the transaction: a store that is down is a 503 before anything is locked or written.
  const placed = input.image ? await placeImage(deps.assetStore, input.image) : undefined;
  return editSteps(deps, auth, demoId, async (tx, demo, now) => {
    const existing = await repo.listSteps(tx, demo.id);
    const chapterIds = (await chapters.listChapters(tx, demo.id)).map((c) => c.id);
    // Page patches: selectors the server can match, image assets of this demo (400 naming the patch; helper F).
    if (input.patches) await checkPagePatches(tx, demo.id, input.patches);
    const at = Math.min(input.number ?? existing.length + 1, existing.length + 1);
    // Targets by number name the steps as they are numbered before this one is inserted.
    const story = resolveStepStory(input, undefined, existing, chapterIds);
    const image = placed ? { ...placed, id: await insertPlacedAsset(tx, demo, placed.placed, now) } : undefined;
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
        ...story,
        editedAt: now,
        createdAt: now,
        updatedAt: now,
      },
    ]);
    const ordered = [...existing];
    ordered.splice(at - 1, 0, step!);
    await repo.renumber(tx, ordered, now);
    return { step: step!, steps: ordered };
  });
}
