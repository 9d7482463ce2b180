// One step against its page captured again: the target still found, its text, its box, its picture; and the new capture "replace" would use.
import type { CapturedElement, CapturedPage } from '../generation/generation.types';
import { chooseFrame, fractions } from '../generation/step-builder';
import { type FractionBox, pictureDifference } from './image-diff';
import type { PageCapture } from './recapture';
import type { PageBox, StepBaseline, StepReason, StepResult } from './staleness.tables';
import { normaliseText, type TargetFound } from './target-query';

/** A step of the draft as the check reads it. */
export interface StepToCheck {
  id: string;
  number: number;
  pageUrl: string;
  width: number | null;
  height: number | null;
  image: Buffer | null;
  html: string | null;
  hotspots: Array<{ id: string; selector: string | null } & FractionBox>;
  baseline: StepBaseline | null;
}

export interface Thresholds {
  /** Share of the target's pixels (0..1) that may differ before its picture counts as changed. */
  imageThreshold: number;
  /** Pixels any edge of the target's box may move before it counts as moved. */
  boxThresholdPx: number;
}

/** What "replace" puts in the step: the new screenshot and/or snapshot, and the hotspots' new boxes. */
export interface NewCapture {
  image: Buffer | null;
  html: string | null;
  width: number;
  height: number;
  boxes: Record<string, FractionBox>;
  baseline: StepBaseline | null;
}

export interface StepOutcome {
  result: StepResult;
  capture: NewCapture | null;
  /** The facts to keep as the step's baseline when it has none yet. */
  firstBaseline: StepBaseline | null;
}

/** Looks selectors up in a snapshot (the document workers' queryTargets). */
export type QueryTargets = (html: string, selectors: string[], known?: string[]) => Promise<TargetFound[]>;

/**
 * Compares one step with its page as captured now. Text is compared with the step's baseline (or, for a
 * step with a snapshot and no baseline, the snapshot's text); the box with the baseline's page box, else
 * with the hotspot's box on a screenshot taken where generation takes it; the picture of the target
 * with the same part of the step's image. Pictures and boxes of a step whose image is not a capture of
 * this size (a recording made in another window) are not compared.
 */
export async function compareStep(step: StepToCheck, capture: PageCapture, limits: Thresholds, query: QueryTargets): Promise<StepOutcome> {
  const targets = step.hotspots.filter((h): h is typeof h & { selector: string } => !!h.selector);
  const primary = targets[0] ?? null;
  const base: StepResult = {
    stepId: step.id,
    number: step.number,
    pageUrl: step.pageUrl,
    status: 'ok',
    reasons: [],
    selector: primary?.selector ?? null,
    textBefore: null,
    textAfter: null,
    boxShiftPx: null,
    imageDiff: null,
    frameDiff: null,
    detail: '',
    replaceable: false,
    replacedAt: null,
  };
  if (!capture.page) {
    return { result: { ...base, status: 'unreachable', reasons: [capture.reason], detail: capture.message }, capture: null, firstBaseline: null };
  }
  const page = capture.page;
  if (capture.loginWall) {
    const detail = `${capture.url} now shows a sign-in form${page.url !== capture.url ? ` (at ${page.url})` : ''}: the check does not sign in.`;
    return { result: { ...base, status: 'unreachable', reasons: ['login_required'], detail }, capture: null, firstBaseline: null };
  }

  const found = await findTargets(page, targets.map((t) => t.selector), query);
  const missing = targets.filter((_, i) => !found[i]!.found);
  const reasons: StepReason[] = [];
  const details: string[] = [];
  if (missing.length > 0) {
    reasons.push('target_missing');
    details.push(`Not found on the page: ${missing.map((t) => t.selector).join(', ')}.`);
  }

  const first = primary ? found[0]! : null;
  const frame = page.screenshot ? chooseFrame(page, first?.box) : null;
  const comparable = !!(step.image && frame && step.width === page.width && step.height === page.height);
  const oldBox: FractionBox | null = primary ? { x: primary.x, y: primary.y, width: primary.width, height: primary.height } : null;
  const newBox = first?.box && frame ? fractions(first.box, frame.top, page) : null;
  const result: StepResult = { ...base };

  if (primary && first?.found) {
    result.textAfter = first.text;
    result.textBefore = step.baseline?.selector === primary.selector ? step.baseline.text : await snapshotText(step, primary.selector, query);
    if (result.textBefore !== null && result.textAfter !== null && result.textBefore !== result.textAfter) {
      reasons.push('text_changed');
      details.push(`Its text was “${result.textBefore}”, now “${result.textAfter}”.`);
    }
    if (step.baseline?.selector === primary.selector && step.baseline.box && first.box) {
      result.boxShiftPx = edgeShift(step.baseline.box, first.box);
    } else if (comparable && oldBox && newBox) {
      result.boxShiftPx = edgeShift(scaled(oldBox, page), scaled(newBox, page));
    }
    if (result.boxShiftPx !== null && result.boxShiftPx > limits.boxThresholdPx) {
      reasons.push('box_moved');
      details.push(`Its box moved by ${result.boxShiftPx} px.`);
    }
  }
  if (comparable && frame && step.image) {
    result.frameDiff = await pictureDifference(step.image, null, frame.screenshot, null);
    if (!primary) result.imageDiff = result.frameDiff;
    else if (first?.found) result.imageDiff = await pictureDifference(step.image, oldBox, frame.screenshot, newBox ?? oldBox);
    if (result.imageDiff !== null && result.imageDiff > limits.imageThreshold) {
      reasons.push('image_changed');
      details.push(`${Math.round(result.imageDiff * 100)}% of the ${primary ? 'target’s' : 'screenshot’s'} pixels changed.`);
    }
  }

  result.reasons = reasons;
  result.status = missing.length > 0 ? 'missing' : reasons.length > 0 ? 'changed' : 'ok';
  result.detail = details.join(' ') || 'As it was.';
  const baseline: StepBaseline | null = primary && first?.found ? { selector: primary.selector, text: first.text, box: first.box ?? null } : null;
  const newCapture = captureFor(step, page, frame, targets, found, baseline);
  // A step with nothing to show yet (added by hand with its address) may take the capture too.
  result.replaceable = newCapture !== null && (result.status !== 'ok' || (!step.image && step.html === null));
  return { result, capture: result.replaceable ? newCapture : null, firstBaseline: step.baseline ? null : baseline };
}

interface Found extends TargetFound {
  box?: PageBox;
}

/** Each selector in the capture's elements (with its box), else in its snapshot (found, no box). */
async function findTargets(page: CapturedPage, selectors: string[], query: QueryTargets): Promise<Found[]> {
  const byElement = selectors.map((s) => elementOf(page.elements, s));
  const rest = selectors.filter((_, i) => !byElement[i]);
  const known = page.elements.filter((e) => e.box).map((e) => e.selector);
  const queried = rest.length > 0 && page.html ? await query(page.html, rest, known) : [];
  let next = 0;
  return selectors.map((_, i) => {
    const el = byElement[i];
    if (el) return { found: true, text: normaliseText(el.text), box: el.box };
    const q = queried[next++];
    if (!q?.found) return { found: false, text: null };
    // Another selector for an element the capture measured (a recording's selector): its box is that element's.
    const same = q.same !== null && q.same !== undefined ? elementOf(page.elements, known[q.same]!) : undefined;
    return { found: true, text: q.text, box: same?.box };
  });
}

function elementOf(elements: CapturedElement[], selector: string): { text: string; box?: PageBox } | undefined {
  for (const e of elements) {
    if (e.selector === selector) return { text: e.text, box: e.box };
    if (e.focus?.selector === selector) return { text: e.text, box: e.focus.box ?? e.box };
  }
  return undefined;
}

async function snapshotText(step: StepToCheck, selector: string, query: QueryTargets): Promise<string | null> {
  if (!step.html) return null;
  const [old] = await query(step.html, [selector]);
  return old?.found ? old.text : null;
}

function captureFor(
  step: StepToCheck,
  page: CapturedPage,
  frame: { top: number; screenshot: Buffer } | null,
  targets: Array<{ id: string }>,
  found: Found[],
  baseline: StepBaseline | null,
): NewCapture | null {
  // A step shows a screenshot, or a snapshot without one: it gets the new one of what it shows.
  const image = (step.image || step.html === null) && frame ? frame.screenshot : null;
  const html = step.html !== null && page.html ? page.html : null;
  if (!image && !html) return null;
  const boxes: Record<string, FractionBox> = {};
  targets.forEach((t, i) => {
    const box = found[i]!.box;
    if (frame && box) boxes[t.id] = fractions(box, frame.top, page);
  });
  return { image, html, width: page.width, height: page.height, boxes, baseline };
}

/** The largest move of any edge, in whole pixels. */
function edgeShift(a: PageBox, b: PageBox): number {
  return Math.round(
    Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y), Math.abs(a.x + a.width - (b.x + b.width)), Math.abs(a.y + a.height - (b.y + b.height))),
  );
}

const scaled = (box: FractionBox, page: { width: number; height: number }): PageBox => ({
  x: box.x * page.width,
  y: box.y * page.height,
  width: box.width * page.width,
  height: box.height * page.height,
});
