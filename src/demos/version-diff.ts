// What changed between two states of a demo (a version and the draft, or the live version): for the versions dialog.
import { canonicalJson, type DemoSnapshot, type SnapshotHotspot, type SnapshotStep } from './demo-snapshot';

/** A part of a step that differs between the two sides. */
export const STEP_PARTS = ['title', 'description', 'image', 'page', 'hotspots', 'position', 'kind', 'chapter', 'buttons', 'form', 'page_edits'] as const;
export type StepPart = (typeof STEP_PARTS)[number];

export interface StepChange {
  stepId: string;
  change: 'added' | 'removed' | 'changed' | 'unchanged';
  /** The step's number on each side (null where it does not exist). */
  numberFrom: number | null;
  numberTo: number | null;
  titleFrom: string | null;
  titleTo: string | null;
  descriptionFrom: string | null;
  descriptionTo: string | null;
  parts: StepPart[];
  hotspots: { added: number; removed: number; changed: number };
}

export interface VersionDiff {
  title: { from: string; to: string } | null;
  configurationChanged: boolean;
  /** Chapters added, removed, renamed or reordered. */
  chaptersChanged: boolean;
  steps: StepChange[];
}

const hotspotKey = (h: SnapshotHotspot) =>
  canonicalJson([h.x, h.y, h.width, h.height, h.selector, h.label, h.tooltip, h.tooltip_html ?? null, h.action_type, h.action_target]);

function hotspotChanges(from: SnapshotHotspot[], to: SnapshotHotspot[]) {
  const before = new Map(from.map((h) => [h.id, hotspotKey(h)]));
  const after = new Map(to.map((h) => [h.id, hotspotKey(h)]));
  let changed = 0;
  for (const [id, key] of after) if (before.has(id) && before.get(id) !== key) changed++;
  return {
    added: [...after.keys()].filter((id) => !before.has(id)).length,
    removed: [...before.keys()].filter((id) => !after.has(id)).length,
    changed,
  };
}

/**
 * Step by step, what `to` changed from `from`. Steps are matched by id (publishing and restoring keep
 * ids); a step counts as moved when the order of the steps both sides share differs around it, not
 * merely because one was added before it. The list follows `to`'s order, removed steps where they were.
 */
export function diffSnapshots(from: DemoSnapshot, to: DemoSnapshot): VersionDiff {
  const fromSteps = new Map(from.steps.map((s, i) => [s.id, { step: s, number: i + 1 }]));
  const toSteps = new Map(to.steps.map((s, i) => [s.id, { step: s, number: i + 1 }]));
  // Rank among the shared steps on each side: a different rank is a reorder.
  const sharedFrom = from.steps.filter((s) => toSteps.has(s.id)).map((s) => s.id);
  const sharedTo = to.steps.filter((s) => fromSteps.has(s.id)).map((s) => s.id);
  const rankFrom = new Map(sharedFrom.map((id, i) => [id, i]));
  const rankTo = new Map(sharedTo.map((id, i) => [id, i]));

  const compare = (a: SnapshotStep | undefined, b: SnapshotStep | undefined, numberFrom: number | null, numberTo: number | null): StepChange => {
    const id = (a ?? b)!.id;
    const hotspots = hotspotChanges(a?.hotspots ?? [], b?.hotspots ?? []);
    const parts: StepPart[] = [];
    if (a && b) {
      if (a.title !== b.title) parts.push('title');
      if (a.description !== b.description || (a.description_html ?? null) !== (b.description_html ?? null)) parts.push('description');
      if (a.image_asset_id !== b.image_asset_id || a.html_asset_id !== b.html_asset_id) parts.push('image');
      if (a.page_url !== b.page_url) parts.push('page');
      if (hotspots.added + hotspots.removed + hotspots.changed > 0) parts.push('hotspots');
      if (rankFrom.get(id) !== rankTo.get(id)) parts.push('position');
      // The story fields, absent from versions made before interactive demos: a page without them.
      if ((a.kind ?? 'page') !== (b.kind ?? 'page')) parts.push('kind');
      if ((a.chapter_id ?? null) !== (b.chapter_id ?? null)) parts.push('chapter');
      if (canonicalJson(a.content?.buttons ?? []) !== canonicalJson(b.content?.buttons ?? [])) parts.push('buttons');
      if (canonicalJson(a.content?.form ?? null) !== canonicalJson(b.content?.form ?? null)) parts.push('form');
      if (canonicalJson(a.patches ?? []) !== canonicalJson(b.patches ?? [])) parts.push('page_edits');
    }
    return {
      stepId: id,
      change: !a ? 'added' : !b ? 'removed' : parts.length > 0 ? 'changed' : 'unchanged',
      numberFrom,
      numberTo,
      titleFrom: a?.title ?? null,
      titleTo: b?.title ?? null,
      descriptionFrom: a?.description ?? null,
      descriptionTo: b?.description ?? null,
      parts,
      hotspots,
    };
  };

  const steps: StepChange[] = [];
  // Removed steps go right after the step that preceded them on the `from` side.
  const removedAfter = new Map<string | null, StepChange[]>();
  let previous: string | null = null;
  for (const [i, s] of from.steps.entries()) {
    if (!toSteps.has(s.id)) {
      const list = removedAfter.get(previous) ?? [];
      list.push(compare(s, undefined, i + 1, null));
      removedAfter.set(previous, list);
    } else previous = s.id;
  }
  steps.push(...(removedAfter.get(null) ?? []));
  for (const [i, s] of to.steps.entries()) {
    const before = fromSteps.get(s.id);
    steps.push(compare(before?.step, s, before?.number ?? null, i + 1));
    steps.push(...(removedAfter.get(s.id) ?? []));
  }
  return {
    title: from.title === to.title ? null : { from: from.title, to: to.title },
    configurationChanged: canonicalJson(from.configuration) !== canonicalJson(to.configuration),
    chaptersChanged: canonicalJson(from.chapters ?? []) !== canonicalJson(to.chapters ?? []),
    steps,
  };
}
