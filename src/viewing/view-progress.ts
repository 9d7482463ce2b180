import type { ActionType } from '../demos/story.schemas';

/**
 * The rules of a view's progress, without the database: what a list of viewer events does to a view, to
 * its step rows and to the daily rollups. The ingestion reads the views, runs this, and writes the result
 * back with one statement per table.
 */

/**
 * The events of a view. The first three move it along its steps; the others (path events, sent by
 * interactive demos) say which chapter the viewer chose, which hotspot or button they used, and how far
 * they went in a form: they feed the path roll-ups and never move the view.
 */
export const EVENT_TYPES = [
  'view_started',
  'step_reached',
  'completed',
  'chapter_selected',
  'action_taken',
  'cta_clicked',
  'form_shown',
  'form_started',
  'form_submitted',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The fields each path event carries beside its step number (required, then optional). */
export const PATH_EVENT_FIELDS = {
  chapter_selected: { required: ['chapterId'], optional: [] },
  action_taken: { required: ['elementId', 'actionType'], optional: ['targetStep'] },
  cta_clicked: { required: ['elementId'], optional: [] },
  form_shown: { required: [], optional: [] },
  form_started: { required: [], optional: [] },
  form_submitted: { required: [], optional: [] },
} as const;

export interface IngestEvent {
  id: string;
  type: EventType;
  stepNumber?: number;
  /** Already capped by the route. */
  seconds?: number;
  referrer?: string;
  chapterId?: string;
  elementId?: string;
  actionType?: ActionType;
  targetStep?: number;
}

/** The fields of a view that events change. */
export interface ViewState {
  id: string;
  demoId: string;
  /** The version played (0: recorded before versions): the rollups keep versions apart. */
  version: number;
  /** Workspace traffic (views.internal): its own roll-up rows, left out of figures by default. */
  internal: boolean;
  /** The link ('' for none) and company ('' for anonymous) the view is counted under. */
  shareId: string;
  company: string;
  startedAt: Date;
  stepsViewed: number[];
  currentStep: number;
  completed: boolean;
  completedAt: Date | null;
  durationSeconds: number;
  /** The chapter chosen last (chapter_selected), null before any. */
  chapterId: string | null;
  /** What the path roll-ups counted already (viewing.tables.ts views.path_marks), in order. */
  pathMarks: string[];
}

/** A view counts once per chapter, step, element and form stage, up to this many marks in all. */
export const MAX_PATH_MARKS = 500;
/** A path names at most this many chapters: later choices still count, under the path as it was. */
export const MAX_PATH_CHAPTERS = 8;
/** The form stages, as their events name them (form_<stage>). */
export const FORM_STAGES = ['shown', 'started', 'submitted'] as const;
export type FormStage = (typeof FORM_STAGES)[number];

/** The day, version and traffic kind every roll-up row is keyed by first. */
interface RowKey {
  demoId: string;
  day: string;
  version: number;
  internal: boolean;
}

export interface ChapterDelta extends RowKey {
  chapterId: string;
  choices: number;
  views: number;
  completions: number;
}
export interface ChapterStepDelta extends RowKey {
  chapterId: string;
  stepNumber: number;
  views: number;
}
export interface PathDelta extends RowKey {
  path: string;
  views: number;
}
export interface ElementDelta extends RowKey {
  stepNumber: number;
  elementId: string;
  actionType: string | null;
  actionClicks: number;
  actionViews: number;
  ctaClicks: number;
  ctaViews: number;
}
export interface FormDelta extends RowKey {
  stepNumber: number;
  shown: number;
  started: number;
  submitted: number;
}

export interface DailyDelta {
  demoId: string;
  day: string;
  version: number;
  internal: boolean;
  views: number;
  completions: number;
  durationSeconds: number;
}

export interface StepDailyDelta {
  demoId: string;
  day: string;
  version: number;
  internal: boolean;
  stepNumber: number;
  views: number;
  seconds: number;
  endedHere: number;
}

export interface SegmentDelta {
  demoId: string;
  day: string;
  internal: boolean;
  shareId: string;
  company: string;
  views: number;
  completions: number;
  lastViewedAt: Date;
}

// Key order is the rows' primary-key order (see sorted()): numbers sort as text once padded, and false
// before true as 0 before 1.
const pad = (n: number) => String(n).padStart(10, '0');
const flag = (b: boolean) => (b ? '1' : '0');

/** Rows keyed by a tuple in primary-key order, merged per key; `sorted` answers them in that order. */
class KeyedRows<V> {
  private readonly rows = new Map<string, { key: string[]; value: V }>();
  get(key: string[], make: () => V): V {
    const id = JSON.stringify(key);
    let entry = this.rows.get(id);
    if (!entry) {
      entry = { key, value: make() };
      this.rows.set(id, entry);
    }
    return entry.value;
  }
  sorted(): V[] {
    return [...this.rows.values()].sort((a, b) => compareTuples(a.key, b.key)).map((e) => e.value);
  }
}

const rowKey = (view: ViewState): RowKey => ({ demoId: view.demoId, day: dayOf(view.startedAt), version: view.version, internal: view.internal });
const keyOf = (k: RowKey) => [k.demoId, k.day, pad(k.version), flag(k.internal)];

/** What a batch adds to the rollups, merged per row so that each row is written once per batch. */
export class RollupDeltas {
  readonly daily = new Map<string, DailyDelta>();
  readonly steps = new Map<string, StepDailyDelta>();
  readonly segments = new Map<string, SegmentDelta>();
  readonly chapters = new KeyedRows<ChapterDelta>();
  readonly chapterSteps = new KeyedRows<ChapterStepDelta>();
  readonly paths = new KeyedRows<PathDelta>();
  readonly elements = new KeyedRows<ElementDelta>();
  readonly forms = new KeyedRows<FormDelta>();

  chapter(view: ViewState, chapterId: string): ChapterDelta {
    const k = rowKey(view);
    return this.chapters.get([...keyOf(k), chapterId], () => ({ ...k, chapterId, choices: 0, views: 0, completions: 0 }));
  }

  chapterStep(view: ViewState, chapterId: string, stepNumber: number): ChapterStepDelta {
    const k = rowKey(view);
    return this.chapterSteps.get([...keyOf(k), chapterId, pad(stepNumber)], () => ({ ...k, chapterId, stepNumber, views: 0 }));
  }

  path(view: ViewState, path: string): PathDelta {
    const k = rowKey(view);
    return this.paths.get([...keyOf(k), path], () => ({ ...k, path, views: 0 }));
  }

  element(view: ViewState, stepNumber: number, elementId: string): ElementDelta {
    const k = rowKey(view);
    return this.elements.get([...keyOf(k), pad(stepNumber), elementId], () => ({
      ...k,
      stepNumber,
      elementId,
      actionType: null,
      actionClicks: 0,
      actionViews: 0,
      ctaClicks: 0,
      ctaViews: 0,
    }));
  }

  form(view: ViewState, stepNumber: number): FormDelta {
    const k = rowKey(view);
    return this.forms.get([...keyOf(k), pad(stepNumber)], () => ({ ...k, stepNumber, shown: 0, started: 0, submitted: 0 }));
  }

  day(view: ViewState): DailyDelta {
    const { demoId, version, internal } = view;
    const day = dayOf(view.startedAt);
    const key = `${demoId}|${day}|${pad(version)}|${flag(internal)}`;
    let entry = this.daily.get(key);
    if (!entry) {
      entry = { demoId, day, version, internal, views: 0, completions: 0, durationSeconds: 0 };
      this.daily.set(key, entry);
    }
    return entry;
  }

  step(view: ViewState, stepNumber: number): StepDailyDelta {
    const { demoId, version, internal } = view;
    const day = dayOf(view.startedAt);
    const key = `${demoId}|${day}|${pad(version)}|${flag(internal)}|${pad(stepNumber)}`;
    let entry = this.steps.get(key);
    if (!entry) {
      entry = { demoId, day, version, internal, stepNumber, views: 0, seconds: 0, endedHere: 0 };
      this.steps.set(key, entry);
    }
    return entry;
  }

  segment(view: ViewState): SegmentDelta {
    const { demoId, internal, shareId, company } = view;
    const day = dayOf(view.startedAt);
    // JSON keeps the text columns apart whatever they hold; the rows are sorted by their own fields below.
    const key = JSON.stringify([demoId, day, internal, shareId, company]);
    let entry = this.segments.get(key);
    if (!entry) {
      entry = { demoId, day, internal, shareId, company, views: 0, completions: 0, lastViewedAt: view.startedAt };
      this.segments.set(key, entry);
    }
    return entry;
  }

  /** Rows in key order: concurrent batches lock rollup rows in the same order and never deadlock. */
  sorted() {
    const byKey = <V>(m: Map<string, V>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
    const segments = [...this.segments.values()].sort((a, b) =>
      compareTuples([a.demoId, a.day, flag(a.internal), a.shareId, a.company], [b.demoId, b.day, flag(b.internal), b.shareId, b.company]),
    );
    return {
      daily: byKey(this.daily),
      steps: byKey(this.steps),
      segments,
      chapters: this.chapters.sorted(),
      chapterSteps: this.chapterSteps.sorted(),
      paths: this.paths.sorted(),
      elements: this.elements.sorted(),
      forms: this.forms.sorted(),
    };
  }
}

function compareTuples(a: string[], b: string[]) {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return 0;
}

export interface ProgressResult {
  view: ViewState;
  /** Seconds to add per step, and when a step was first reached (for new step rows). */
  stepRows: Map<number, { seconds: number; firstReachedAt: Date }>;
  justCompleted: boolean;
}

export const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Applies `events` (fresh, in order) to `view`. `created` says the view was just created by this batch:
 * it counts as a view of the day and of step 1. Everything a view does is credited to the UTC day it
 * started, and a view that has not completed "ends" at its furthest step: that is where it drops off.
 */
export function applyEvents(
  before: ViewState,
  created: boolean,
  events: IngestEvent[],
  stepCount: number,
  now: Date,
  deltas: RollupDeltas,
): ProgressResult {
  const view: ViewState = { ...before, stepsViewed: [...before.stepsViewed], pathMarks: [...before.pathMarks] };
  const marks = new Set(view.pathMarks);
  /** True the first time a view does `mark` (within MAX_PATH_MARKS): its distinct-view figures count it. */
  const mark = (m: string) => {
    if (marks.has(m) || marks.size >= MAX_PATH_MARKS) return false;
    marks.add(m);
    return true;
  };
  const chosen = () => [...marks].filter((m) => m.startsWith('c:')).map((m) => m.slice(2));
  /** A step reached under the chapter chosen last: a step of that chapter's funnel (once per view). */
  const reachInChapter = (step: number) => {
    if (view.chapterId !== null && mark(`s:${view.chapterId}:${step}`)) deltas.chapterStep(view, view.chapterId, step).views++;
  };
  const reached = new Set(view.stepsViewed);
  let furthest = Math.max(0, ...view.stepsViewed);
  const stepRows = new Map<number, { seconds: number; firstReachedAt: Date }>();
  const touch = (step: number) => {
    let row = stepRows.get(step);
    if (!row) {
      row = { seconds: 0, firstReachedAt: now };
      stepRows.set(step, row);
    }
    return row;
  };

  if (created) {
    touch(1);
    deltas.day(view).views++;
    deltas.step(view, 1).views++;
    deltas.step(view, 1).endedHere++;
    deltas.segment(view).views++;
  }

  const credit = (seconds: number | undefined) => {
    if (!seconds || seconds <= 0) return;
    touch(view.currentStep).seconds += seconds;
    view.durationSeconds += seconds;
    deltas.day(view).durationSeconds += seconds;
    deltas.step(view, view.currentStep).seconds += seconds;
  };
  const reach = (step: number) => {
    if (reached.has(step)) return;
    reached.add(step);
    touch(step);
    deltas.step(view, step).views++;
    if (!view.completed && step > furthest) {
      if (furthest > 0) deltas.step(view, furthest).endedHere--;
      deltas.step(view, step).endedHere++;
    }
    furthest = Math.max(furthest, step);
  };

  let justCompleted = false;
  for (const event of events) {
    if (event.type === 'view_started') continue;
    credit(event.seconds);
    if (event.type === 'step_reached' && event.stepNumber !== undefined) {
      reach(event.stepNumber);
      reachInChapter(event.stepNumber);
      view.currentStep = event.stepNumber;
    } else if (event.type === 'completed' && !view.completed) {
      reach(stepCount);
      reachInChapter(stepCount);
      for (const chapterId of chosen()) deltas.chapter(view, chapterId).completions++;
      view.currentStep = stepCount;
      deltas.step(view, furthest).endedHere--;
      view.completed = true;
      view.completedAt = now;
      justCompleted = true;
      deltas.day(view).completions++;
      deltas.segment(view).completions++;
    } else {
      pathEvent(view, event, deltas, mark, chosen);
    }
  }
  view.stepsViewed = [...reached].sort((a, b) => a - b);
  view.pathMarks = [...marks];
  return { view, stepRows, justCompleted };
}

/**
 * A path event's share of the roll-ups: event counts always, distinct views the first time the view does
 * it (`mark`). Choosing a chapter also makes it the view's current one and extends its path.
 */
function pathEvent(view: ViewState, event: IngestEvent, deltas: RollupDeltas, mark: (m: string) => boolean, chosen: () => string[]) {
  const step = event.stepNumber ?? view.currentStep;
  switch (event.type) {
    case 'chapter_selected': {
      const chapterId = event.chapterId!;
      const row = deltas.chapter(view, chapterId);
      row.choices++;
      const before = chosen();
      if (mark(`c:${chapterId}`)) {
        row.views++;
        if (before.length < MAX_PATH_CHAPTERS) {
          // The view moves from the path it had to the longer one.
          if (before.length > 0) deltas.path(view, before.join('>')).views--;
          deltas.path(view, [...before, chapterId].join('>')).views++;
        }
      }
      view.chapterId = chapterId;
      break;
    }
    case 'action_taken': {
      const row = deltas.element(view, step, event.elementId!);
      row.actionType = event.actionType ?? row.actionType;
      row.actionClicks++;
      if (mark(`a:${step}:${event.elementId}`)) row.actionViews++;
      break;
    }
    case 'cta_clicked': {
      const row = deltas.element(view, step, event.elementId!);
      row.ctaClicks++;
      if (mark(`k:${step}:${event.elementId}`)) row.ctaViews++;
      break;
    }
    case 'form_shown':
    case 'form_started':
    case 'form_submitted': {
      const stage = event.type.slice('form_'.length) as FormStage;
      if (mark(`f:${step}:${stage}`)) deltas.form(view, step)[stage]++;
      break;
    }
    default:
      break;
  }
}
