// The one shape a player receives, for the public viewer and the editor's preview alike: only where the assets are fetched from differs.
import type { DemoReader } from '../demos/demos.reader';
import { resolveConfiguration } from '../demos/demo-configuration.schemas';
import { toHotspot } from '../demos/hotspots.schemas';
import { buttonsAnswer } from '../demos/story-answers.schemas';
import type { Brand } from '../workspaces/branding';
import { patchedAddress, patchesHash, patchImageIds } from '../demos/page-patches';
import type { PagePatch } from '../demos/story.schemas';

type DemoContent = NonNullable<Awaited<ReturnType<DemoReader['published']>>>;

/**
 * What a player needs to play a demo (the published version, never the draft), and nothing of the editor's: no ids of steps, no page addresses.
 * Hotspots carry their selector only on snapshot steps (no image): there the box is a placeholder (HTML
 * capture has no layout) and the player finds the element in the snapshot by the selector. `assetUrl`
 * decides where images and snapshots are fetched (the gated viewer route, or the editor's route for
 * previews). Action targets are step numbers (`goto`, `submit`), chapter ids (`chapter`) or addresses.
 */
export function buildPayload(
  found: DemoContent,
  assetUrl: (assetId: string) => string,
  brand: Brand,
  // The share link's personalisation values (Share.variables); the editor's preview has none.
  variables: Readonly<Record<string, string>> = {},
) {
  const numbers = new Map(found.steps.map((s) => [s.id, s.position]));
  const assetIds = new Set<string>();
  const url = (id: string | null) => {
    if (!id) return null;
    assetIds.add(id);
    return assetUrl(id);
  };
  const firstStep = (chapterId: string) => {
    const own = found.steps.filter((s) => s.chapterId === chapterId).map((s) => s.position);
    return own.length > 0 ? Math.min(...own) : null;
  };
  const data = {
    version: found.version,
    title: found.demo.title,
    configuration: resolveConfiguration(found.demo.configuration, brand.color),
    brand,
    chapters: (found.chapters ?? []).map((c) => ({ id: c.id, title: c.title, description: c.description, first_step: firstStep(c.id) })),
    // The original; the viewer's route sets a reviewed translation's language and the list (translations-viewer.ts).
    language: null as string | null,
    languages: [] as string[],
    variables,
    steps: found.steps.map((step) => ({
      number: step.position,
      kind: step.kind,
      chapter_id: step.chapterId,
      title: step.title,
      description: step.description,
      description_html: step.descriptionHtml,
      image_url: url(step.imageAssetId),
      html_url: patchedAddress(url(step.htmlAssetId), step.patches),
      width: step.width,
      height: step.height,
      hotspots: found.hotspots
        .filter((h) => h.stepId === step.id)
        .map((h) => {
          const { id, x, y, width, height, selector, label, tooltip, tooltip_html, action } = toHotspot(h, numbers);
          const onSnapshot = !step.imageAssetId && step.htmlAssetId !== null && selector;
          return { id, x, y, width, height, ...(onSnapshot ? { selector } : {}), label, tooltip, tooltip_html, action };
        }),
      buttons: buttonsAnswer(step.content, numbers),
      ...(step.content.form ? { form: step.content.form } : {}),
    })),
  };
  // A patched snapshot's address names its patches by hash (page-patches.ts): the asset route finds them here,
  // the version's own (never the draft's). The images `image` patches swap in are the demo's assets to serve.
  const patchSets = new Map<string, PagePatch[]>();
  for (const step of found.steps) {
    if (!step.htmlAssetId || step.patches.length === 0) continue;
    for (const id of patchImageIds(step.patches)) assetIds.add(id);
    patchSets.set(`${step.htmlAssetId}:${patchesHash(step.patches)}`, step.patches);
  }
  return { data, assetIds, patchSets };
}

export type ViewerDemo = ReturnType<typeof buildPayload>['data'];
