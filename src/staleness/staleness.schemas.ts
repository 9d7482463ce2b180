// The stale-demo check's API shapes: starting a check, a check with its step results, the schedule; and the row→JSON mapping.
import { z } from 'zod';
import { listEnvelope } from '../core/envelope';
import { idSchema } from '../core/ids';
import { paginationQuery } from '../core/pagination';
import { iso } from '../core/time';
import { demoParams } from '../demos/demo-fields.schemas';
import type { CheckRow, ScheduleRow } from './staleness.repo';
import { CHECK_INTERVALS, CHECK_STATUSES, CHECK_TRIGGERS, STEP_REASONS, STEP_STATUSES, type StepResult } from './staleness.tables';

export const DEFAULT_IMAGE_THRESHOLD = 0.01;
export const DEFAULT_BOX_THRESHOLD_PX = 8;

export const checkParams = demoParams.extend({ check_id: idSchema('demoCheck') });
export const checkStepParams = checkParams.extend({ step_id: idSchema('step') });
export const listChecksQuery = paginationQuery;

/** POST /v1/demos/:id/checks: both thresholds optional. */
export const startCheckBody = z
  .object({
    image_threshold: z.number().min(0).max(1).optional().meta({
      description: `Share (0..1) of the target’s pixels that may differ before its picture counts as changed. Default ${DEFAULT_IMAGE_THRESHOLD}.`,
    }),
    box_threshold_px: z.number().int().min(0).max(2000).optional().meta({
      description: `Pixels any edge of the target’s box may move before it counts as moved. Default ${DEFAULT_BOX_THRESHOLD_PX}.`,
    }),
  })
  .strict()
  // No body at all arrives as null: the defaults.
  .nullish()
  .meta({ examples: [{ image_threshold: 0.1, box_threshold_px: 16 }, {}] });

export const stepResultSchema = z
  .object({
    step_id: idSchema('step'),
    number: z.number().int().meta({ description: 'The step’s number in the draft when checked.' }),
    page_url: z.string(),
    status: z.enum(STEP_STATUSES).meta({
      description:
        '`ok`: as it was. `changed`: found, but its text, box or picture changed (see `reasons`). `missing`: a hotspot’s target is not on the page. ' +
        '`unreachable`: the page could not be captured (`reasons` says why, `login_required` for a page behind a sign-in).',
    }),
    reasons: z.array(z.enum(STEP_REASONS)),
    selector: z.string().nullable().meta({ description: 'The first hotspot’s selector, looked for on the page; null when the step has none (only its picture is compared).' }),
    text_before: z.string().nullable().meta({ description: 'The target’s text the step was made from (its baseline or snapshot); null when not known.' }),
    text_after: z.string().nullable(),
    box_shift_px: z.number().nullable().meta({ description: 'Largest move of any edge of the target’s box, in pixels; null when not measured.' }),
    image_diff: z.number().nullable().meta({ description: 'Share (0..1) of the target’s pixels that differ; null when not compared.' }),
    frame_diff: z.number().nullable().meta({ description: 'Share (0..1) of the whole screenshot’s pixels that differ, for information.' }),
    detail: z.string().meta({ description: 'What was found, in a sentence.' }),
    replaceable: z.boolean().meta({ description: 'Whether POST …/steps/:step_id/replace can use this check’s new capture.' }),
    replaced_at: z.string().nullable(),
  })
  .meta({ id: 'DemoCheckStep' });

const RESULT_EXAMPLE = {
  step_id: 'step_01jd3k7q9x8v2m4n6p0r5s7t9w',
  number: 2,
  page_url: 'https://app.acme.com/invoices',
  status: 'changed',
  reasons: ['text_changed', 'image_changed'],
  selector: 'main > h1',
  text_before: 'Invoices',
  text_after: 'Your invoices',
  box_shift_px: 0,
  image_diff: 0.31,
  frame_diff: 0.02,
  detail: 'Its text was “Invoices”, now “Your invoices”. 31% of the target’s pixels changed.',
  replaceable: true,
  replaced_at: null,
};
const CHECK_EXAMPLE = {
  id: 'chk_01jd3k7q9x8v2m4n6p0r5s7t9w',
  demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w',
  status: 'succeeded',
  trigger: 'api',
  capture_mode: 'chromium',
  drift: true,
  image_threshold: DEFAULT_IMAGE_THRESHOLD,
  box_threshold_px: DEFAULT_BOX_THRESHOLD_PX,
  summary: { checked: 3, ok: 2, changed: 1, missing: 0, unreachable: 0 },
  error: null,
  created_at: '2026-11-29T10:00:00.000Z',
  started_at: '2026-11-29T10:00:00.200Z',
  finished_at: '2026-11-29T10:00:06.900Z',
};

const checkFields = {
  id: idSchema('demoCheck'),
  demo_id: idSchema('demo'),
  status: z.enum(CHECK_STATUSES).meta({ description: '`queued`, `running`, then `succeeded` (results below) or `failed` (`error`).' }),
  trigger: z.enum(CHECK_TRIGGERS).meta({ description: '`api` (the API, the CLI, the editor) or `schedule`.' }),
  capture_mode: z.enum(['chromium', 'html']).nullable().meta({ description: 'How the pages were captured; null until the check runs.' }),
  drift: z.boolean().nullable().meta({ description: 'True when any step is not `ok`; null until the check has succeeded.' }),
  image_threshold: z.number(),
  box_threshold_px: z.number().int(),
  summary: z.object({ checked: z.number().int(), ok: z.number().int(), changed: z.number().int(), missing: z.number().int(), unreachable: z.number().int() }),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
};

export const checkSummarySchema = z.object(checkFields).meta({ id: 'DemoCheckSummary', examples: [CHECK_EXAMPLE] });
export const checkSchema = z
  .object({ ...checkFields, steps: z.array(stepResultSchema).meta({ description: 'One per step with a page address, in step order.' }) })
  .meta({ id: 'DemoCheck', examples: [{ ...CHECK_EXAMPLE, steps: [RESULT_EXAMPLE] }] });
export const checkListEnvelope = listEnvelope(checkSummarySchema);

export const replaceResultSchema = z
  .object({ check_id: idSchema('demoCheck'), step_id: idSchema('step'), replaced_at: z.string() })
  .meta({ id: 'DemoCheckReplace', examples: [{ check_id: CHECK_EXAMPLE.id, step_id: RESULT_EXAMPLE.step_id, replaced_at: '2026-11-29T10:05:00.000Z' }] });

export const scheduleBody = z
  .object({
    interval: z.enum(CHECK_INTERVALS).nullable().meta({ description: '`daily`, `weekly`, or null to stop checking on a schedule.' }),
  })
  .strict()
  .meta({ examples: [{ interval: 'daily' }, { interval: null }] });

export const scheduleSchema = z
  .object({
    demo_id: idSchema('demo'),
    interval: z.enum(CHECK_INTERVALS).nullable(),
    next_run_at: z.string().nullable(),
    last_run_at: z.string().nullable(),
  })
  .meta({
    id: 'DemoCheckSchedule',
    examples: [{ demo_id: CHECK_EXAMPLE.demo_id, interval: 'daily', next_run_at: '2026-11-30T10:00:00.000Z', last_run_at: null }],
  });

export function toCheckSummary(row: CheckRow) {
  const count = (s: StepResult['status']) => row.results.filter((r) => r.status === s).length;
  return {
    id: row.id,
    demo_id: row.demoId,
    status: row.status,
    trigger: row.trigger,
    capture_mode: (row.captureMode as 'chromium' | 'html' | null) ?? null,
    drift: row.status === 'succeeded' ? row.drift : null,
    image_threshold: row.imageThreshold,
    box_threshold_px: row.boxThresholdPx,
    summary: { checked: row.results.length, ok: count('ok'), changed: count('changed'), missing: count('missing'), unreachable: count('unreachable') },
    error: row.error,
    created_at: iso(row.createdAt),
    started_at: row.startedAt ? iso(row.startedAt) : null,
    finished_at: row.finishedAt ? iso(row.finishedAt) : null,
  };
}

export function toCheck(row: CheckRow) {
  return { ...toCheckSummary(row), steps: row.results.map(toStepResult) };
}

function toStepResult(r: StepResult) {
  return {
    step_id: r.stepId,
    number: r.number,
    page_url: r.pageUrl,
    status: r.status,
    reasons: r.reasons,
    selector: r.selector,
    text_before: r.textBefore,
    text_after: r.textAfter,
    box_shift_px: r.boxShiftPx,
    image_diff: r.imageDiff,
    frame_diff: r.frameDiff,
    detail: r.detail,
    replaceable: r.replaceable,
    replaced_at: r.replacedAt,
  };
}

export function toSchedule(demoId: string, row: ScheduleRow | undefined) {
  return {
    demo_id: demoId,
    interval: row?.interval ?? null,
    next_run_at: row ? iso(row.nextRunAt) : null,
    last_run_at: row?.lastRunAt ? iso(row.lastRunAt) : null,
  };
}
