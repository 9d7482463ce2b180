// A demo's content as a written guide reads it: an introduction, chapters as sections, numbered steps with their picture and text, and what comes next.
import type { DemoContent } from '../demos/demo-snapshot';
import type { StoryButton } from '../demos/story.schemas';
import { plainOf, type StoredText } from './guide-text';

type StepRow = DemoContent['steps'][number];
type HotspotRow = DemoContent['hotspots'][number];

/** A place a hotspot or button leads that is not simply the next step. */
export type GuideLink =
  | { kind: 'step'; number: number; title: string; anchor: string }
  | { kind: 'chapter'; title: string; anchor: string }
  | { kind: 'url'; url: string }
  | { kind: 'demo'; url: string }
  | { kind: 'end' }
  | { kind: 'restart' };

export interface GuideHotspot {
  /** 1-based, as the badge on the picture shows it when a step has more than one. */
  n: number;
  box: { x: number; y: number; width: number; height: number };
  label: string;
  tooltip: StoredText;
  /** Undefined for `next` (and `submit` without a target): the guide goes on to the next step anyway. */
  link?: GuideLink;
}

export interface GuideButton {
  label: string;
  description?: string;
  link?: GuideLink;
}

export interface GuideFormField {
  label: string;
  required: boolean;
  type: string;
  options?: string[];
}

export interface GuidePicture {
  assetId: string;
  /** Where guide.md finds it, and the file inside the zip: `images/03-open-the-invoice.png`. */
  file: string;
  /** The hotspots drawn on it (page steps only). */
  hotspots: GuideHotspot[];
}

/** A numbered step: a captured page (`page`) or a form to fill in (`form`). */
export interface GuideStep {
  type: 'step';
  kind: 'page' | 'form';
  number: number;
  anchor: string;
  title: string;
  description: StoredText;
  picture?: GuidePicture;
  hotspots: GuideHotspot[];
  buttons: GuideButton[];
  form?: { fields: GuideFormField[]; submit: string };
}

export type GuideBlock =
  | { type: 'chapter'; anchor: string; title: string; description: string }
  /** A cover met after the start: a section's introduction, not a step. */
  | { type: 'note'; title: string; description: StoredText; links: GuideButton[] }
  /** A chapter menu: the chapters it offers, linked to their sections. */
  | { type: 'menu'; title: string; description: StoredText; choices: GuideButton[] }
  | GuideStep
  /** An end screen: its text and its calls to action (links). */
  | { type: 'end'; title: string; description: StoredText; links: GuideButton[] };

export interface Guide {
  title: string;
  /** The first cover's text (before any step), else empty. */
  intro: { title: string; description: StoredText; links: GuideButton[] } | null;
  blocks: GuideBlock[];
  steps: GuideStep[];
  /** The demo's end call to action, when it has no end step of its own to carry one. */
  callToAction: { label: string; url: string } | null;
  accent: string;
  hasChapters: boolean;
}

const FILE_SLUG_MAX = 40;

/** Lowercase ASCII words joined by dashes, for file names and anchors. */
export function slugOf(text: string, max = FILE_SLUG_MAX): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
  return slug || 'step';
}

const storedOf = (html: string | null | undefined, text: string): StoredText => ({ html: html ?? null, text });

/**
 * The guide of a demo's content (a draft, or a published version's rows): steps in order; `page` and `form`
 * steps numbered from 1; chapters as headings where a step's chapter begins; a first cover as the
 * introduction; chapter menus as lists of their chapters; end screens with their links. Hotspot and button
 * targets become step numbers and anchors. Pure: images are named here, drawn elsewhere.
 */
export function buildGuide(content: DemoContent, accent: string): Guide {
  const steps = [...content.steps].sort((a, b) => a.position - b.position);
  const chapters = new Map((content.chapters ?? []).map((c) => [c.id, c]));
  const numbered = new Map<string, { number: number; title: string; anchor: string }>();
  let n = 0;
  for (const s of steps) {
    if (s.kind === 'page' || s.kind === 'form') {
      n++;
      numbered.set(s.id, { number: n, title: s.title, anchor: `step-${n}` });
    }
  }
  const width = Math.max(2, String(n).length);
  const chapterAnchor = (id: string) => `chapter-${[...chapters.keys()].indexOf(id) + 1}`;

  function linkOf(type: string, target: string | number | null | undefined): GuideLink | undefined {
    switch (type) {
      case 'goto':
      case 'submit': {
        if (target === null || target === undefined) return undefined;
        const step =
          steps.find((s) => s.id === target) ?? (/^\d+$/.test(String(target)) ? steps.find((s) => s.position === Number(target)) : undefined);
        const found = step && numbered.get(step.id);
        if (found) return { kind: 'step', ...found };
        const chapter = step?.chapterId ? chapters.get(step.chapterId) : undefined;
        return chapter ? { kind: 'chapter', title: chapter.title, anchor: chapterAnchor(chapter.id) } : undefined;
      }
      case 'chapter': {
        const chapter = typeof target === 'string' ? chapters.get(target) : undefined;
        return chapter ? { kind: 'chapter', title: chapter.title, anchor: chapterAnchor(chapter.id) } : undefined;
      }
      case 'url':
        return typeof target === 'string' ? { kind: 'url', url: target } : undefined;
      case 'demo':
        return typeof target === 'string' ? { kind: 'demo', url: target } : undefined;
      case 'end':
        return { kind: 'end' };
      case 'restart':
        return { kind: 'restart' };
      default:
        return undefined;
    }
  }

  const buttonsOf = (buttons: StoryButton[]): GuideButton[] =>
    buttons.map((b) => ({ label: b.label, description: b.description, link: linkOf(b.action.type, b.action.target) }));
  /** Buttons a reader can follow from paper: addresses, not the player's own navigation. */
  const linksOf = (buttons: StoryButton[]) => buttonsOf(buttons).filter((b) => b.link?.kind === 'url' || b.link?.kind === 'demo');

  const hotspotsOf = (step: StepRow): GuideHotspot[] =>
    content.hotspots
      .filter((h) => h.stepId === step.id)
      .sort((a, b) => a.y - b.y || a.x - b.x || (a.id < b.id ? -1 : 1))
      .map((h: HotspotRow, i) => ({
        n: i + 1,
        box: clip(h),
        label: h.label,
        tooltip: storedOf(h.tooltipHtml, h.tooltip),
        link: linkOf(h.actionType, h.actionTarget),
      }));

  const blocks: GuideBlock[] = [];
  const guideSteps: GuideStep[] = [];
  let intro: Guide['intro'] = null;
  let chapterId: string | null = null;
  for (const s of steps) {
    if (s.chapterId && s.chapterId !== chapterId && chapters.has(s.chapterId)) {
      const c = chapters.get(s.chapterId)!;
      blocks.push({ type: 'chapter', anchor: chapterAnchor(c.id), title: c.title, description: c.description });
    }
    chapterId = s.chapterId ?? chapterId;
    const description = storedOf(s.descriptionHtml, s.description);
    switch (s.kind) {
      case 'cover':
        if (!intro && guideSteps.length === 0 && blocks.length === 0) intro = { title: s.title, description, links: linksOf(s.content.buttons) };
        else blocks.push({ type: 'note', title: s.title, description, links: linksOf(s.content.buttons) });
        break;
      case 'chapter_menu':
        blocks.push({ type: 'menu', title: s.title, description, choices: buttonsOf(s.content.buttons) });
        break;
      case 'end':
        blocks.push({ type: 'end', title: s.title, description, links: linksOf(s.content.buttons) });
        break;
      default: {
        const { number, anchor } = numbered.get(s.id)!;
        const hotspots = s.kind === 'page' ? hotspotsOf(s) : [];
        const step: GuideStep = {
          type: 'step',
          kind: s.kind === 'form' ? 'form' : 'page',
          number,
          anchor,
          title: s.title || `Step ${number}`,
          description,
          hotspots,
          buttons: buttonsOf(s.content.buttons),
          ...(s.imageAssetId
            ? { picture: { assetId: s.imageAssetId, file: `images/${String(number).padStart(width, '0')}-${slugOf(s.title)}.png`, hotspots } }
            : {}),
          ...(s.kind === 'form' && s.content.form
            ? {
                form: {
                  fields: s.content.form.fields
                    .filter((f) => f.type !== 'hidden')
                    .map((f) => ({ label: f.label || f.name.replaceAll('_', ' '), required: f.required, type: f.type, options: f.options })),
                  submit: s.content.form.submit_label,
                },
              }
            : {}),
        };
        blocks.push(step);
        guideSteps.push(step);
      }
    }
  }
  const configured = content.demo.configuration.call_to_action as { label?: string; url?: string } | null | undefined;
  const hasEnd = blocks.some((b) => b.type === 'end' && b.links.length > 0);
  return {
    title: content.demo.title,
    intro,
    blocks,
    steps: guideSteps,
    callToAction: !hasEnd && configured?.label && configured.url ? { label: configured.label, url: configured.url } : null,
    accent,
    hasChapters: blocks.some((b) => b.type === 'chapter'),
  };
}

/** The box within the picture: a hotspot may spill over an edge. */
function clip(h: { x: number; y: number; width: number; height: number }) {
  const x = Math.min(1, Math.max(0, h.x));
  const y = Math.min(1, Math.max(0, h.y));
  return { x, y, width: Math.max(0, Math.min(1, h.x + h.width) - x), height: Math.max(0, Math.min(1, h.y + h.height) - y) };
}

/** Whether a hotspot's tooltip says something the step's description does not already say. */
export function tooltipAdds(step: Pick<GuideStep, 'description'>, hotspot: GuideHotspot): boolean {
  const tip = plainOf(hotspot.tooltip).toLowerCase();
  if (!tip) return false;
  const description = plainOf(step.description).toLowerCase();
  return !description.includes(tip);
}
