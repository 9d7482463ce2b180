/**
 * The rules of a view's progress, without the database: what a list of viewer events does to a view, to
 * its step rows and to the daily rollups. The ingestion reads the views, runs this, and writes the result
 * back with one statement per table.
 */

export const EVENT_TYPES = ['view_started', 'step_reached', 'completed'] as const;

export interface IngestEvent {
  id: string;
  type: (typeof EVENT_TYPES)[number];
  stepNumber?: number;
  /** Already capped by the route. */
  seconds?: number;
  referrer?: string;
}

/** The fields of a view that events change. */
export interface ViewState {
  id: string;
  demoId: string;
  /** The version played (0: recorded before versions): the rollups keep versions apart. */
  version: number;
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
  views: number;
  completions: number;
  durationSeconds: number;
}

export interface StepDailyDelta {
  demoId: string;
  day: string;
  version: number;
  stepNumber: number;
  views: number;
  seconds: number;
  endedHere: number;
}

// Key order is the rows' primary-key order (see sorted()): numbers sort as text once padded.
const pad = (n: number) => String(n).padStart(10, '0');

/** What a batch adds to the rollups, merged per row so that each row is written once per batch. */
export class RollupDeltas {
  readonly daily = new Map<string, DailyDelta>();
  readonly steps = new Map<string, StepDailyDelta>();

  day(demoId: string, day: string, version: number): DailyDelta {
    const key = `${demoId}|${day}|${pad(version)}`;
    let entry = this.daily.get(key);
    if (!entry) {
      entry = { demoId, day, version, views: 0, completions: 0, durationSeconds: 0 };
      this.daily.set(key, entry);
    }
    return entry;
  }

  step(demoId: string, day: string, version: number, stepNumber: number): StepDailyDelta {
    const key = `${demoId}|${day}|${pad(version)}|${pad(stepNumber)}`;
    let entry = this.steps.get(key);
    if (!entry) {
      entry = { demoId, day, version, stepNumber, views: 0, seconds: 0, endedHere: 0 };
      this.steps.set(key, entry);
    }
    return entry;
  }

  /** Rows in key order: concurrent batches lock rollup rows in the same order and never deadlock. */
  sorted() {
    const byKey = <V>(m: Map<string, V>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
    return { daily: byKey(this.daily), steps: byKey(this.steps) };
  }
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
  const day = dayOf(view.startedAt);
  const { demoId, version } = view;
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
    deltas.day(demoId, day, version).views++;
    deltas.step(demoId, day, version, 1).views++;
    deltas.step(demoId, day, version, 1).endedHere++;
  }

  const credit = (seconds: number | undefined) => {
    if (!seconds || seconds <= 0) return;
    touch(view.currentStep).seconds += seconds;
    view.durationSeconds += seconds;
    deltas.day(demoId, day, version).durationSeconds += seconds;
    deltas.step(demoId, day, version, view.currentStep).seconds += seconds;
  };
  const reach = (step: number) => {
    if (reached.has(step)) return;
    reached.add(step);
    touch(step);
    deltas.step(demoId, day, version, step).views++;
    if (!view.completed && step > furthest) {
      if (furthest > 0) deltas.step(demoId, day, version, furthest).endedHere--;
      deltas.step(demoId, day, version, step).endedHere++;
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
      deltas.step(demoId, day, version, furthest).endedHere--;
      view.completed = true;
      view.completedAt = now;
      justCompleted = true;
      deltas.day(demoId, day, version).completions++;
    }
  }
  view.stepsViewed = [...reached].sort((a, b) => a - b);
  return { view, stepRows, justCompleted };
}
