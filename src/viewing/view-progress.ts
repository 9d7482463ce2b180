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

/** What a batch adds to the rollups, merged per row so that each row is written once per batch. */
export class RollupDeltas {
  readonly daily = new Map<string, DailyDelta>();
  readonly steps = new Map<string, StepDailyDelta>();
  readonly segments = new Map<string, SegmentDelta>();

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
    return { daily: byKey(this.daily), steps: byKey(this.steps), segments };
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
  const view: ViewState = { ...before, stepsViewed: [...before.stepsViewed] };
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
      view.currentStep = event.stepNumber;
    } else if (event.type === 'completed' && !view.completed) {
      reach(stepCount);
      view.currentStep = stepCount;
      deltas.step(view, furthest).endedHere--;
      view.completed = true;
      view.completedAt = now;
      justCompleted = true;
      deltas.day(view).completions++;
      deltas.segment(view).completions++;
    }
  }
  view.stepsViewed = [...reached].sort((a, b) => a - b);
  return { view, stepRows, justCompleted };
}
