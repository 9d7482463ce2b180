// The stale-demo check's tables: each check and its per-step results, the new captures a step can be replaced with, each step's baseline, and the schedule per demo.
import { boolean, doublePrecision, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { at, bytea, createdAt, id, updatedAt } from '../db/columns';
import { demos, steps } from '../demos/demos.tables';
import { workspaces } from '../workspaces/workspaces.tables';

export const CHECK_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export const STEP_STATUSES = ['ok', 'changed', 'missing', 'unreachable'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** Why a step is not ok; a step that is ok has none. */
export const STEP_REASONS = [
  'text_changed',
  'box_moved',
  'image_changed',
  'target_missing',
  'login_required',
  'not_found',
  'http_error',
  'blocked',
  'timeout',
  'unreachable',
] as const;
export type StepReason = (typeof STEP_REASONS)[number];

export const CHECK_TRIGGERS = ['api', 'schedule'] as const;
export type CheckTrigger = (typeof CHECK_TRIGGERS)[number];

export const CHECK_INTERVALS = ['daily', 'weekly'] as const;
export type CheckInterval = (typeof CHECK_INTERVALS)[number];

/** A box in page pixels (the captured page's coordinates). */
export interface PageBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One step's result, as stored and (mapped to snake_case) answered. */
export interface StepResult {
  stepId: string;
  number: number;
  pageUrl: string;
  status: StepStatus;
  reasons: StepReason[];
  /** The hotspot selector looked for; null when the step has none (only its picture is compared). */
  selector: string | null;
  textBefore: string | null;
  textAfter: string | null;
  /** How far the target's box moved (largest edge shift, pixels); null when not measured. */
  boxShiftPx: number | null;
  /** Share of the target's pixels that differ (0..1); null when not compared. */
  imageDiff: number | null;
  /** Share of the whole screenshot's pixels that differ (0..1), for information. */
  frameDiff: number | null;
  /** A sentence for people: what was found. */
  detail: string;
  /** Whether a new capture is kept for "replace" (a step whose page was captured). */
  replaceable: boolean;
  replacedAt: string | null;
}

/**
 * One check of a demo's draft against its source pages. `results` holds one entry per page step (steps
 * without a page address are not checked); `drift` is true when any is not ok.
 */
export const demoChecks = pgTable(
  'demo_checks',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    status: text('status', { enum: CHECK_STATUSES }).notNull(),
    trigger: text('trigger', { enum: CHECK_TRIGGERS }).notNull(),
    captureMode: text('capture_mode'),
    imageThreshold: doublePrecision('image_threshold').notNull(),
    boxThresholdPx: integer('box_threshold_px').notNull(),
    /** Null until the check has finished. */
    drift: boolean('drift'),
    results: jsonb('results').$type<StepResult[]>().notNull().default([]),
    error: text('error'),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
    createdAt: createdAt(),
  },
  (t) => [index('demo_checks_demo_created_idx').on(t.demoId, t.createdAt), index('demo_checks_status_idx').on(t.status)],
);

/**
 * The new capture of a step that drifted, kept so that "replace" can use it: only the latest finished
 * check of a demo keeps its captures (older ones are deleted when a newer check finishes).
 */
export const demoCheckCaptures = pgTable(
  'demo_check_captures',
  {
    checkId: text('check_id')
      .notNull()
      .references(() => demoChecks.id, { onDelete: 'cascade' }),
    stepId: text('step_id')
      .notNull()
      .references(() => steps.id, { onDelete: 'cascade' }),
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    image: bytea('image'),
    html: text('html'),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** The new box of each hotspot that was found, in fractions of the new image, by hotspot id. */
    boxes: jsonb('boxes').$type<Record<string, { x: number; y: number; width: number; height: number }>>().notNull().default({}),
    /** The facts the step is compared with from now on, should it be replaced. */
    baseline: jsonb('baseline').$type<StepBaseline>(),
    createdAt: createdAt(),
  },
  (t) => [index('demo_check_captures_check_idx').on(t.checkId, t.stepId), index('demo_check_captures_demo_idx').on(t.demoId)],
);

/** What a step's target looked like when last seen accepted: the text and page box later checks compare with. */
export interface StepBaseline {
  selector: string;
  text: string | null;
  box: PageBox | null;
}

/**
 * Each step's baseline: written by the first check that finds its target (a capture has no record of the
 * text it read) and by "replace", so later checks see a text change.
 */
export const stepBaselines = pgTable('step_check_baselines', {
  stepId: text('step_id')
    .primaryKey()
    .references(() => steps.id, { onDelete: 'cascade' }),
  demoId: text('demo_id')
    .notNull()
    .references(() => demos.id, { onDelete: 'cascade' }),
  baseline: jsonb('baseline').$type<StepBaseline>().notNull(),
  updatedAt: updatedAt(),
});

/** A demo's check schedule: a periodic check whose drift e-mails the demo's owner. */
export const demoCheckSchedules = pgTable(
  'demo_check_schedules',
  {
    demoId: text('demo_id')
      .primaryKey()
      .references(() => demos.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    interval: text('interval', { enum: CHECK_INTERVALS }).notNull(),
    nextRunAt: at('next_run_at').notNull(),
    lastRunAt: at('last_run_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('demo_check_schedules_next_idx').on(t.nextRunAt)],
);
