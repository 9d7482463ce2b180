import { z } from 'zod';
import { idSchema } from '../core/ids';
import { httpUrl, text } from '../core/text';
import { iso, timestamp } from '../core/time';
import type { RecordingView } from './recording-access';
import { RECORDING_MODES, RECORDING_STATUSES } from './recordings.tables';

export const MAX_RECORDED_STEPS = 200;

// ---- requests ------------------------------------------------------------------------------------

export const recordingParams = z.object({ id: idSchema('recording').meta({ description: 'The recording’s id, as its creation answered.' }) });
export const recordingStepParams = recordingParams.extend({
  number: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_RECORDED_STEPS)
    .meta({ description: 'The step’s number, 1 to the recording’s step_count.' }),
});

/** Declared for the reference; the route checks the header itself, before the body is read. */
export const recordedStepHeaders = z.looseObject({
  'content-digest': z.string().meta({
    description:
      'RFC 9530: `sha-256=:<base64 of the SHA-256 of the exact body bytes>:` (a `sha-512` member beside it is ' +
      'checked too). Required.',
    example: 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:',
  }),
});

export const createRecordingBody = z
  .object({
    step_count: z
      .number()
      .int()
      .min(1)
      .max(MAX_RECORDED_STEPS)
      .meta({ description: 'How many steps will be uploaded, numbered 1 to step_count. 1 with `replace_step`.' }),
    title: text()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .meta({
        description:
          'Title of the new demo (mode `new` only). Default: “Recording of <host>”, the host of the first ' +
          'step’s page_url, decided at completion.',
      }),
    mode: z
      .enum(RECORDING_MODES)
      .default('new')
      .meta({
        description:
          '`new`: the steps become a new draft demo. `append`: they are added after the last step of demo_id. ' +
          '`replace_step`: the one step replaces the image, snapshot, text and hotspots of step_id.',
      }),
    demo_id: idSchema('demo').optional().meta({ description: 'The demo to add to: required with `append` and `replace_step`.' }),
    step_id: idSchema('step').optional().meta({ description: 'The step of demo_id to replace: required with `replace_step`.' }),
  })
  .strict()
  .superRefine((body, ctx) => {
    const problem = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (body.mode !== 'new' && !body.demo_id) problem('demo_id', `is required with mode ${body.mode}`);
    if (body.mode === 'new' && body.demo_id) problem('demo_id', 'is only for mode append or replace_step');
    if (body.mode === 'replace_step' && !body.step_id) problem('step_id', 'is required with mode replace_step');
    if (body.mode !== 'replace_step' && body.step_id) problem('step_id', 'is only for mode replace_step');
    if (body.mode === 'replace_step' && body.step_count !== 1) problem('step_count', 'must be 1 with mode replace_step');
    if (body.mode !== 'new' && body.title !== undefined) problem('title', 'names a new demo: only for mode new');
  })
  .meta({
    examples: [
      { step_count: 3, title: 'Create and send an invoice' },
      { step_count: 1, mode: 'replace_step', demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w', step_id: 'step_01jd3k8b1c3d5e7f9g1h3j5k7m' },
    ],
  });
export type CreateRecordingBody = z.infer<typeof createRecordingBody>;

const cssPixels = z.number().meta({ description: 'CSS pixels in the viewport.' });

export const recordedStepBody = z
  .object({
    action: z.enum(['click', 'type']).meta({ description: 'What the person did on this step.' }),
    title: text().trim().max(200).meta({ description: 'The step’s draft title, e.g. “Click “Create invoice””.' }),
    description: text().trim().max(5000).optional().meta({ description: 'The step’s draft description.' }),
    page_url: httpUrl.meta({ description: 'The address of the page the step was recorded on.' }),
    viewport: z
      .object({
        width: z.number().int().min(1).max(100_000).meta({ description: 'Viewport width in CSS pixels.' }),
        height: z.number().int().min(1).max(100_000).meta({ description: 'Viewport height in CSS pixels.' }),
      })
      .strict()
      .meta({ description: 'The viewport the target is measured in; the screenshot covers it.' }),
    target: z
      .object({
        x: cssPixels,
        y: cssPixels,
        width: cssPixels.min(0),
        height: cssPixels.min(0),
        selector: text().max(1000).nullable().meta({ description: 'CSS selector of the element, for the player.' }),
        label: text().trim().max(200).nullable().meta({ description: 'The element’s accessible name.' }),
      })
      .strict()
      .nullable()
      .meta({ description: 'The element acted on, as a box in the viewport; null for none (no hotspot).' }),
    screenshot: text()
      .nullable()
      .meta({
        description:
          'The viewport as `data:image/png|jpeg|webp;base64,...`; its type is read from its bytes, which may be ' +
          'at most STEP_IMAGE_MAX_BYTES (413 beyond).',
      }),
    snapshot: text()
      .nullable()
      .meta({
        description:
          'The page as one HTML document (resources inlined), at most RECORDING_SNAPSHOT_MAX_BYTES in UTF-8 (413 ' +
          'beyond). Stored sanitised, without password and payment values nor anything marked data-demoshare-redact.',
      }),
    value: text()
      .max(10_000)
      .nullable()
      .optional()
      .meta({ description: 'For `type` steps, the text typed. Checked, never stored.' }),
  })
  .strict()
  .meta({
    examples: [
      {
        action: 'click',
        title: 'Click “New invoice”',
        page_url: 'https://app.acme.com/invoices',
        viewport: { width: 1440, height: 900 },
        target: { x: 1036, y: 72, width: 132, height: 40, selector: 'button#new-invoice', label: 'New invoice' },
        screenshot: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        snapshot: null,
      },
    ],
  });
export type RecordedStepBody = z.infer<typeof recordedStepBody>;

// ---- responses -----------------------------------------------------------------------------------

export const recordingSchema = z
  .object({
    id: z.string().meta({ description: 'The recording’s id (rec_...).', example: 'rec_01jd3k7q9x8v2m4n6p0r5s7t9w' }),
    status: z.enum(RECORDING_STATUSES).meta({ description: '`uploading` until completed, then `completed`.' }),
    mode: z.enum(RECORDING_MODES).meta({ description: 'What completion does with the steps (see the create request).' }),
    step_count: z.number().int().meta({ description: 'How many steps the recording has.' }),
    received: z.array(z.number().int()).meta({ description: 'Numbers of the steps stored so far, ascending.' }),
    missing: z
      .array(z.number().int())
      .meta({ description: 'Numbers of the steps still to upload, ascending: what a resuming client sends.' }),
    demo_id: z
      .string()
      .nullable()
      .meta({ description: 'The demo added to; for mode `new`, the demo made, once completed (null before).' }),
    editor_url: z
      .string()
      .nullable()
      .meta({ description: 'The demo in the web editor, once completed; null before.', example: 'https://demoshare.example.com/demos/demo_01jd3k7q9x8v2m4n6p0r5s7t9w' }),
    max_step_bytes: z
      .number()
      .int()
      .meta({ description: 'The largest request body one step upload may have (RECORDING_STEP_MAX_BYTES).' }),
    expires_at: timestamp.meta({ description: 'When an upload not completed by then is discarded (24 hours after creation).' }),
    created_at: timestamp.meta({ description: 'When the recording was created.' }),
    completed_at: timestamp.nullable().meta({ description: 'When the recording was completed; null before.' }),
  })
  .meta({
    id: 'Recording',
    description: 'A recording being uploaded step by step, and what became of it.',
    examples: [
      {
        id: 'rec_01jd3k7q9x8v2m4n6p0r5s7t9w',
        status: 'uploading',
        mode: 'new',
        step_count: 3,
        received: [1, 2],
        missing: [3],
        demo_id: null,
        editor_url: null,
        max_step_bytes: 12582912,
        expires_at: '2026-11-27T10:00:00.000Z',
        created_at: '2026-11-26T10:00:00.000Z',
        completed_at: null,
      },
      {
        id: 'rec_01jd3k7q9x8v2m4n6p0r5s7t9w',
        status: 'completed',
        mode: 'new',
        step_count: 3,
        received: [1, 2, 3],
        missing: [],
        demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w',
        editor_url: 'https://demoshare.example.com/demos/demo_01jd3k7q9x8v2m4n6p0r5s7t9w',
        max_step_bytes: 12582912,
        expires_at: '2026-11-27T10:00:00.000Z',
        created_at: '2026-11-26T10:00:00.000Z',
        completed_at: '2026-11-26T10:03:20.000Z',
      },
    ],
  });

export interface RecordingUrls {
  editor(demoId: string): string;
  maxStepBytes: number;
}

export function toRecording(view: RecordingView, urls: RecordingUrls): z.infer<typeof recordingSchema> {
  const { row, received } = view;
  const all = Array.from({ length: row.stepCount }, (_, i) => i + 1);
  const stored = row.status === 'completed' ? all : received;
  const have = new Set(stored);
  return {
    id: row.id,
    status: row.status,
    mode: row.mode,
    step_count: row.stepCount,
    received: stored,
    missing: all.filter((n) => !have.has(n)),
    demo_id: row.demoId,
    editor_url: row.status === 'completed' && row.demoId ? urls.editor(row.demoId) : null,
    max_step_bytes: urls.maxStepBytes,
    expires_at: iso(row.expiresAt),
    created_at: iso(row.createdAt),
    completed_at: iso(row.completedAt),
  };
}
