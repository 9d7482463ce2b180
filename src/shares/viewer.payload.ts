import * as demosRepo from '../demos/demos.repo';
import { resolveConfiguration, toHotspot } from '../demos/demos.schemas';
import type { Executor } from '../db/client';

/**
 * What a player needs to play a demo, and nothing of the editor's: no ids of steps, no page addresses.
 * Hotspots carry their selector only on snapshot steps (no image): there the box is a placeholder (HTML
 * capture has no layout) and the player finds the element in the snapshot by the selector. `assetUrl`
 * decides where images and snapshots are fetched (the gated viewer route, or the editor's route for
 * previews).
 */
export async function buildPayload(
  db: Executor,
  workspaceId: string,
  demoId: string,
  assetUrl: (assetId: string) => string,
) {
  const found = await demosRepo.loadDemo(db, workspaceId, demoId);
  if (!found) return undefined;
  const numbers = new Map(found.steps.map((s) => [s.id, s.position]));
  const assetIds = new Set<string>();
  const url = (id: string | null) => {
    if (!id) return null;
    assetIds.add(id);
    return assetUrl(id);
  };
  const data = {
    title: found.demo.title,
    configuration: resolveConfiguration(found.demo.configuration),
    steps: found.steps.map((step) => ({
      number: step.position,
      title: step.title,
      description: step.description,
      image_url: url(step.imageAssetId),
      html_url: url(step.htmlAssetId),
      width: step.width,
      height: step.height,
      hotspots: found.hotspots
        .filter((h) => h.stepId === step.id)
        .map((h) => {
          const { id, x, y, width, height, selector, label, tooltip, action } = toHotspot(h, numbers);
          const onSnapshot = !step.imageAssetId && step.htmlAssetId !== null && selector;
          return { id, x, y, width, height, ...(onSnapshot ? { selector } : {}), label, tooltip, action };
        }),
    })),
  };
  return { data, stepCount: found.steps.length, assetIds };
}

export type ViewerDemo = NonNullable<Awaited<ReturnType<typeof buildPayload>>>['data'];
