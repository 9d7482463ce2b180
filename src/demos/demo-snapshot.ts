// A published version's frozen content (demo_versions.snapshot): made from the draft, compared, turned back into rows.
import type { ChapterRow } from './chapters.repo';
import type { HotspotRow, StepRow } from './demos.repo';
import type { HotspotAction } from './demos.tables';
import type { PagePatch, StepContent, StepKind } from './story.schemas';

/**
 * The frozen content of a published version (demo_versions.snapshot). Snake_case because the migration
 * that made version 1 of demos published before versions existed builds the same shape in SQL
 * (drizzle/0010_demo_versions.sql): keep the two in step.
 */
export interface SnapshotHotspot {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  selector: string | null;
  label: string;
  tooltip: string;
  /** Absent from versions published before rich text. */
  tooltip_html?: string | null;
  action_type: HotspotAction;
  action_target: string | null;
}

export interface SnapshotStep {
  id: string;
  position: number;
  title: string;
  description: string;
  page_url: string | null;
  image_asset_id: string | null;
  html_asset_id: string | null;
  width: number | null;
  height: number | null;
  /** The story fields are absent from versions published before interactive demos: a page, no chapter. */
  kind?: StepKind;
  chapter_id?: string | null;
  content?: StepContent;
  patches?: PagePatch[];
  description_html?: string | null;
  hotspots: SnapshotHotspot[];
}

export interface SnapshotChapter {
  id: string;
  position: number;
  title: string;
  description: string;
}

export interface DemoSnapshot {
  title: string;
  /** As stored on the demo (unresolved): resolveConfiguration fills the defaults when it is served. */
  configuration: Record<string, unknown>;
  steps: SnapshotStep[];
  /** Only when the demo has chapters: versions of demos without any keep the shape they had before. */
  chapters?: SnapshotChapter[];
}

export interface DemoContent {
  demo: { id: string; title: string; configuration: Record<string, unknown> };
  steps: StepRow[];
  hotspots: HotspotRow[];
  /** Absent where a caller has no chapters to give: none. */
  chapters?: ChapterRow[];
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The draft's content as a snapshot: steps in order, each with its hotspots by id. */
export function snapshotOf(content: DemoContent): DemoSnapshot {
  const steps = [...content.steps].sort((a, b) => a.position - b.position || byId(a, b));
  const chapters = [...(content.chapters ?? [])].sort((a, b) => a.position - b.position || byId(a, b));
  return {
    ...(chapters.length > 0
      ? { chapters: chapters.map((c) => ({ id: c.id, position: c.position, title: c.title, description: c.description })) }
      : {}),
    title: content.demo.title,
    configuration: content.demo.configuration,
    steps: steps.map((s) => ({
      id: s.id,
      position: s.position,
      title: s.title,
      description: s.description,
      page_url: s.pageUrl,
      image_asset_id: s.imageAssetId,
      html_asset_id: s.htmlAssetId,
      width: s.width,
      height: s.height,
      ...storyFieldsOf(s),
      hotspots: content.hotspots
        .filter((h) => h.stepId === s.id)
        .sort(byId)
        .map((h) => ({
          id: h.id,
          x: h.x,
          y: h.y,
          width: h.width,
          height: h.height,
          selector: h.selector,
          label: h.label,
          tooltip: h.tooltip,
          ...(h.tooltipHtml ? { tooltip_html: h.tooltipHtml } : {}),
          action_type: h.actionType,
          action_target: h.actionTarget,
        })),
    })),
  };
}

/**
 * The story fields a step has beyond a plain page, and only those: a linear demo's snapshot stays the shape
 * versions had before interactive demos, so that publishing it again is not a change.
 */
function storyFieldsOf(s: StepRow): Partial<SnapshotStep> {
  const fields: Partial<SnapshotStep> = {};
  if (s.kind !== 'page') fields.kind = s.kind;
  if (s.chapterId) fields.chapter_id = s.chapterId;
  if (s.content.buttons.length > 0 || s.content.form) fields.content = s.content;
  if (s.patches.length > 0) fields.patches = s.patches;
  if (s.descriptionHtml) fields.description_html = s.descriptionHtml;
  return fields;
}

/** Every asset a snapshot names: they outlive the draft's steps while the version exists. */
export function assetIdsOf(snapshot: DemoSnapshot): string[] {
  const ids = new Set<string>();
  for (const s of snapshot.steps) {
    if (s.image_asset_id) ids.add(s.image_asset_id);
    if (s.html_asset_id) ids.add(s.html_asset_id);
    // The images page patches swap in: the version serves them while it exists (page-patches.ts).
    for (const p of s.patches ?? []) if (p.op === 'image' && p.value) ids.add(p.value);
  }
  return [...ids].sort();
}

/** A snapshot back as rows: what the viewer payload is built from, and what a restore writes. */
export function rowsOf(
  demoId: string,
  snapshot: DemoSnapshot,
  at: Date,
): { steps: StepRow[]; hotspots: HotspotRow[]; chapters: ChapterRow[] } {
  const steps: StepRow[] = [];
  const hotspots: HotspotRow[] = [];
  const chapters: ChapterRow[] = (snapshot.chapters ?? []).map((c) => ({
    id: c.id,
    demoId,
    position: c.position,
    title: c.title,
    description: c.description,
    createdAt: at,
    updatedAt: at,
  }));
  for (const s of snapshot.steps) {
    steps.push({
      id: s.id,
      demoId,
      position: s.position,
      title: s.title,
      description: s.description,
      pageUrl: s.page_url,
      imageAssetId: s.image_asset_id,
      width: s.width,
      height: s.height,
      htmlAssetId: s.html_asset_id,
      kind: s.kind ?? 'page',
      chapterId: s.chapter_id ?? null,
      content: s.content ?? { buttons: [] },
      patches: s.patches ?? [],
      descriptionHtml: s.description_html ?? null,
      // Versions do not record it; a restore gives back what the draft knew (demo-versions.service.ts).
      editedAt: null,
      createdAt: at,
      updatedAt: at,
    });
    for (const h of s.hotspots) {
      hotspots.push({
        id: h.id,
        stepId: s.id,
        demoId,
        x: h.x,
        y: h.y,
        width: h.width,
        height: h.height,
        selector: h.selector,
        label: h.label,
        tooltip: h.tooltip,
        tooltipHtml: h.tooltip_html ?? null,
        actionType: h.action_type,
        actionTarget: h.action_target,
        createdAt: at,
        updatedAt: at,
      });
    }
  }
  return { steps, hotspots, chapters };
}

/** JSON with keys sorted at every level: jsonb keeps its own key order, so a plain stringify cannot compare. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const sameSnapshot = (a: DemoSnapshot, b: DemoSnapshot) => canonicalJson(a) === canonicalJson(b);
