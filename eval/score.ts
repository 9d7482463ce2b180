import type { GenerationResult } from '../src/generation';
import { type Avoid, type Expected, pagePath, type Target } from './corpus';

/**
 * How a step's hotspot relates to an element a good tour points at: on it, on a part of it (a grid's
 * heading), or on a close wrapper of it (a div around the button). Anything else is not on it.
 */
export type Relation = 'same' | 'inside' | 'wraps';

/** Where one step's hotspot landed, as a locator (selector in the snapshot, or geometry) found it. */
export interface Placement {
  /** Why the step has no usable hotspot (none, the placeholder box, a selector that finds nothing); null when it has one. */
  missing: string | null;
  /** The relation to every target and avoided element of the step's page that the hotspot is on. */
  on: Array<{ place: Target | Avoid; relation: Relation }>;
}

export type Verdict = 'good' | 'unnamed' | 'off target' | 'avoided' | 'no hotspot';

export interface StepScore {
  index: number;
  page: string;
  title: string;
  verdict: Verdict;
  target?: Target;
  note: string;
}

/** The roles whose targets a tour of a site should reach: what the product is, what to do, where, what it costs, how to join. */
export const KEY_ROLES = ['hero', 'cta', 'nav', 'pricing', 'form'];

export interface SiteScore {
  steps: StepScore[];
  good: number;
  missingHotspots: number;
  avoided: number;
  /** Every page's steps are together (one run per page). */
  grouped: boolean;
  /** Key targets on captured pages that some good step reached, out of all key targets on captured pages. */
  keyHit: number;
  keyTotal: number;
}

/** Lower case, plain quotes and single spaces: how step text and expected names are compared. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[“”„"]/g, '"')
    .replace(/[‘’']/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

function isTarget(place: Target | Avoid): place is Target {
  return 'names' in place;
}

/**
 * Scores a generated tour against what the site's expected.json says a good tour points at. A step is
 * good when its hotspot is on a target of its page and its words (title, description, label, tooltip) name
 * that target; a step on an element to avoid is bad whatever else it is on.
 */
export function scoreSite(result: GenerationResult, expected: Expected, placements: Placement[]): SiteScore {
  const steps: StepScore[] = result.steps.map((step, index) => {
    const placement = placements[index]!;
    const page = pagePath(step.pageUrl);
    const base = { index, page, title: step.title };
    if (placement.missing) return { ...base, verdict: 'no hotspot', note: placement.missing };
    const avoided = placement.on.find((o) => !isTarget(o.place));
    if (avoided) return { ...base, verdict: 'avoided', note: `on ${avoided.place.selector} (${(avoided.place as Avoid).why})` };
    const words = normalise([step.title, step.description, ...step.hotspots.flatMap((h) => [h.label, h.tooltip])].join(' '));
    const hits = placement.on.filter((o): o is { place: Target; relation: Relation } => isTarget(o.place));
    if (hits.length === 0) return { ...base, verdict: 'off target', note: `on ${step.hotspots[0]?.selector ?? 'nothing'}` };
    const named = hits.find((h) => h.place.names.some((name) => words.includes(normalise(name))));
    if (named) return { ...base, verdict: 'good', target: named.place, note: `${named.place.role} (${named.relation})` };
    const first = hits[0]!;
    return { ...base, verdict: 'unnamed', target: first.place, note: `${first.place.role}: text names none of ${first.place.names.map((n) => `"${n}"`).join(', ')}` };
  });

  const runs = steps.map((s) => s.page).filter((page, i, all) => i === 0 || all[i - 1] !== page);
  const captured = new Set(result.pages.map(pagePath));
  const keys = expected.targets.filter((t) => KEY_ROLES.includes(t.role) && captured.has(t.page));
  const reached = new Set(steps.filter((s) => s.verdict === 'good').map((s) => s.target));
  return {
    steps,
    good: steps.filter((s) => s.verdict === 'good').length,
    missingHotspots: steps.filter((s) => s.verdict === 'no hotspot').length,
    avoided: steps.filter((s) => s.verdict === 'avoided').length,
    grouped: new Set(runs).size === runs.length,
    keyHit: keys.filter((t) => reached.has(t)).length,
    keyTotal: keys.length,
  };
}

/** A hotspot box against an element's box (page pixels): on it, on part of it, or closely around it. */
export function relate(hotspot: Box, element: Box): Relation | null {
  const overlap = intersection(hotspot, element);
  const h = area(hotspot);
  const e = area(element);
  if (h <= 0 || e <= 0 || overlap <= 0) return null;
  const ofHotspot = overlap / h;
  const ofElement = overlap / e;
  if (ofHotspot >= 0.8 && ofElement >= 0.8) return 'same';
  if (ofHotspot >= 0.8) return 'inside';
  if (ofElement >= 0.8 && h <= 1.5 * e) return 'wraps';
  return null;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const area = (b: Box) => Math.max(0, b.width) * Math.max(0, b.height);

function intersection(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}
