// demo.json ⇄ a demo's portable content (demos/demo-documents.ts): the one mapping between the file and the rows.
import type { ErrorDetail } from '../core/errors';
import { httpUrl } from '../core/text';
import { storedConfiguration } from '../demos/demo-configuration.schemas';
import type { PortableDemo } from '../demos/demo-documents';
import { chapterLocalId, stepLocalId } from '../demos/demo-documents';
import type { SnapshotHotspot, SnapshotStep } from '../demos/demo-snapshot';
import { sanitizeRichText } from '../demos/rich-text';
import type { PagePatch, StepContent } from '../demos/story.schemas';
import { type DemoDocument, type DocumentStep, FORMAT_NAME, FORMAT_VERSION } from './demo-document.schemas';

/** Every object's keys in order, at every level: the same content is the same bytes, whatever stored it. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, sortedKeys(v)]),
    );
  }
  return value;
}

const ref = (digest: string | null | undefined) => (digest ? `sha256:${digest}` : null);
const digestOf = (reference: string) => reference.slice('sha256:'.length);

const withTargets = (content: StepContent): StepContent => ({
  ...content,
  buttons: content.buttons.map((b) => ({ ...b, action: { type: b.action.type, target: b.action.target ?? null } })),
});

/**
 * The demo.json of a portable demo: fields in a fixed order, objects the editor stores (configuration, buttons,
 * forms, patches) with sorted keys, so that exporting the same content gives the same bytes.
 */
export function toDocument(portable: PortableDemo, key: string | null, schemaUrl: string): DemoDocument {
  const { snapshot } = portable;
  return {
    $schema: schemaUrl,
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    ...(key ? { key } : {}),
    title: snapshot.title,
    source_url: portable.sourceUrl,
    configuration: sortedKeys(snapshot.configuration) as DemoDocument['configuration'],
    chapters: (snapshot.chapters ?? []).map((c) => ({ id: c.id, title: c.title, description: c.description })),
    steps: snapshot.steps.map(
      (s): DocumentStep => ({
        id: s.id,
        kind: s.kind ?? 'page',
        chapter: s.chapter_id ?? null,
        title: s.title,
        description: s.description,
        description_html: s.description_html ?? null,
        page_url: s.page_url,
        width: s.width,
        height: s.height,
        image: ref(s.image_asset_id),
        html: ref(s.html_asset_id),
        hotspots: s.hotspots.map((h) => ({
          x: h.x,
          y: h.y,
          width: h.width,
          height: h.height,
          selector: h.selector,
          label: h.label,
          tooltip: h.tooltip,
          tooltip_html: h.tooltip_html ?? null,
          action: { type: h.action_type, target: h.action_target },
        })),
        content: sortedKeys(withTargets(s.content ?? { buttons: [] })) as DocumentStep['content'],
        patches: (s.patches ?? []).map((p) => sortedKeys(p.op === 'image' && p.value ? { ...p, value: ref(p.value) } : p) as PagePatch),
      }),
    ),
  };
}

/** demo.json as written: two-space indents and a final newline, which diffs well in a repository. */
export const serializeDocument = (doc: DemoDocument) => `${JSON.stringify(doc, null, 2)}\n`;

/** Where an asset is named in the document, and whether it must be an image or an HTML snapshot. */
export interface AssetUse {
  digest: string;
  kind: 'image' | 'html';
  field: string;
  /** For an HTML snapshot: the page its relative addresses resolve against (cleaning). */
  pageUrl: string | null;
}

/**
 * A validated document's content in portable form (ids renamed `step-1`…, `chapter-1`… by order, asset
 * references as digests, rich text sanitised), with every asset it names and where. Problems that the
 * schema cannot see (duplicate ids, actions naming nothing) come back as details naming their path.
 */
export function fromDocument(doc: DemoDocument): { portable: PortableDemo; uses: AssetUse[]; problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [];
  const uses: AssetUse[] = [];
  const steps = new Map<string, string>();
  const chapters = new Map<string, string>();
  doc.chapters.forEach((c, i) => {
    if (chapters.has(c.id)) problems.push({ field: `chapters[${i}].id`, message: `${c.id} is the id of an earlier chapter` });
    else chapters.set(c.id, chapterLocalId(i));
  });
  doc.steps.forEach((s, i) => {
    if (steps.has(s.id)) problems.push({ field: `steps[${i}].id`, message: `${s.id} is the id of an earlier step` });
    else steps.set(s.id, stepLocalId(i));
  });

  const target = (at: string, action: { type: string; target: string | null }): string | null => {
    const t = action.target;
    switch (action.type) {
      case 'goto':
      case 'submit':
        if (t === null) {
          if (action.type === 'goto') problems.push({ field: at, message: 'a goto action needs the id of a step of this document' });
          return null;
        }
        if (!steps.has(t)) problems.push({ field: at, message: `${t} is not the id of a step of this document` });
        return steps.get(t) ?? t;
      case 'chapter':
        if (t === null || !chapters.has(t)) problems.push({ field: at, message: `${t ?? 'null'} is not the id of a chapter of this document` });
        return (t && chapters.get(t)) ?? t;
      case 'url':
      case 'demo':
        if (t === null || !httpUrl.safeParse(t).success) problems.push({ field: at, message: 'must be an http(s) URL' });
        return t;
      default:
        if (t !== null) problems.push({ field: at, message: `must be null for a ${action.type} action` });
        return null;
    }
  };
  const rich = (html: string | null) => {
    if (html === null) return undefined;
    const clean = sanitizeRichText(html).html;
    return clean.length > 0 ? clean : undefined;
  };

  const portableSteps = doc.steps.map((s, i): SnapshotStep => {
    const at = `steps[${i}]`;
    if (s.chapter !== null && !chapters.has(s.chapter)) problems.push({ field: `${at}.chapter`, message: `${s.chapter} is not the id of a chapter of this document` });
    if (s.image) uses.push({ digest: digestOf(s.image), kind: 'image', field: `${at}.image`, pageUrl: null });
    if (s.html) uses.push({ digest: digestOf(s.html), kind: 'html', field: `${at}.html`, pageUrl: s.page_url });
    const patches = s.patches.map((p, k): PagePatch => {
      if (p.op !== 'image') return p;
      const field = `${at}.patches[${k}].value`;
      if (!p.value || !/^sha256:[0-9a-f]{64}$/.test(p.value)) {
        problems.push({ field, message: 'an image patch names its image as sha256:<hex>' });
        return p;
      }
      uses.push({ digest: digestOf(p.value), kind: 'image', field, pageUrl: null });
      return { ...p, value: digestOf(p.value) };
    });
    const content: StepContent = {
      ...s.content,
      buttons: s.content.buttons.map((b, k) => ({
        ...b,
        action: { type: b.action.type, target: target(`${at}.content.buttons[${k}].action.target`, b.action) },
      })),
    };
    s.hotspots.forEach((h, k) => {
      if (h.x + h.width > 1.000001 || h.y + h.height > 1.000001) {
        problems.push({ field: `${at}.hotspots[${k}]`, message: 'must lie inside the step: x + width and y + height at most 1' });
      }
    });
    const hotspots = s.hotspots.map(
      (h, k): SnapshotHotspot => ({
        id: '',
        x: h.x,
        y: h.y,
        width: h.width,
        height: h.height,
        selector: h.selector,
        label: h.label,
        tooltip: h.tooltip,
        ...(rich(h.tooltip_html) ? { tooltip_html: rich(h.tooltip_html) } : {}),
        action_type: h.action.type,
        action_target: target(`${at}.hotspots[${k}].action.target`, h.action),
      }),
    );
    const descriptionHtml = rich(s.description_html);
    return {
      id: stepLocalId(i),
      position: i + 1,
      title: s.title,
      description: s.description,
      page_url: s.page_url,
      image_asset_id: s.image ? digestOf(s.image) : null,
      html_asset_id: s.html ? digestOf(s.html) : null,
      width: s.width,
      height: s.height,
      // Only what a step has beyond a plain page, as the draft's snapshot holds it (demo-snapshot.ts).
      ...(s.kind !== 'page' ? { kind: s.kind } : {}),
      ...(s.chapter !== null && chapters.has(s.chapter) ? { chapter_id: chapters.get(s.chapter) } : {}),
      ...(content.buttons.length > 0 || content.form ? { content } : {}),
      ...(patches.length > 0 ? { patches } : {}),
      ...(descriptionHtml ? { description_html: descriptionHtml } : {}),
      hotspots,
    };
  });

  return {
    portable: {
      sourceUrl: doc.source_url,
      snapshot: {
        ...(doc.chapters.length > 0
          ? { chapters: doc.chapters.map((c, i) => ({ id: chapterLocalId(i), position: i + 1, title: c.title, description: c.description })) }
          : {}),
        title: doc.title,
        configuration: storedConfiguration(undefined, doc.configuration),
        steps: portableSteps,
      },
    },
    uses,
    problems,
  };
}
