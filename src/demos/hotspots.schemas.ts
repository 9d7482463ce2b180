import { z } from 'zod';
import { text } from '../core/text';
import type { HotspotRow } from './demos.repo';
import { HOTSPOT_ACTIONS } from './demos.tables';
import { actionAnswer, actionAnswerSchema } from './story-answers.schemas';
import { RICH_TEXT_MAX } from './rich-text';

const fraction = z.number().min(0).max(1);
/** The plain tooltip's limit: the text of `tooltip_html` is cut to it. */
export const TOOLTIP_MAX = 2000;
const EPSILON = 1e-6;

const actionSchema = z
  .object({
    type: z.enum(HOTSPOT_ACTIONS),
    target: z
      .union([z.number().int().min(1), text().max(2048)])
      .nullable()
      .optional()
      .meta({
        description:
          '`goto` and `submit`: a step number or step id (`submit` without one goes on as `next`); `chapter`: a ' +
          'chapter id of this demo; `url` and `demo`: an http(s) address; `next`, `end`, `restart`: none.',
      }),
  })
  .strict()
  .meta({
    description:
      'What a click does: `next` (default), `goto` a step, `chapter` (its first step), `url` (new tab), `submit` ' +
      'the step’s form, `end` the demo, `restart` from step 1, or another `demo` (its share link). See docs/interactive-demos.md.',
  });
export type HotspotActionInput = z.infer<typeof actionSchema>;

const hotspotFields = {
  x: fraction,
  y: fraction,
  width: fraction.refine((v) => v > 0, 'must be greater than 0'),
  height: fraction.refine((v) => v > 0, 'must be greater than 0'),
  selector: text()
    .max(1000)
    .nullable()
    .meta({
      description:
        'CSS selector of the element the hotspot marks (snapshot steps): the player puts the hotspot on it. ' +
        'A PATCH that moves or resizes the box without giving `selector` clears it.',
    }),
  label: text().trim().max(200),
  tooltip: text().trim().max(TOOLTIP_MAX),
  tooltip_html: text()
    .max(RICH_TEXT_MAX)
    .nullable()
    .meta({
      description:
        'Rich text of the tooltip: b, strong, i, em, a (http(s) and mailto links, opened in a new tab), ul, ol, li, ' +
        'p, br; anything else is removed on the server. When given, `tooltip` becomes its plain text. Null removes it.',
    }),
  action: actionSchema,
};

/** The box must lie inside the image: fractions add up to at most 1 on each axis. */
export function boxProblems(box: { x: number; y: number; width: number; height: number }) {
  const problems: { field: string; message: string }[] = [];
  if (box.x + box.width > 1 + EPSILON) problems.push({ field: 'width', message: 'x + width must be at most 1' });
  if (box.y + box.height > 1 + EPSILON) problems.push({ field: 'height', message: 'y + height must be at most 1' });
  return problems;
}

export const createHotspotBody = z
  .object({
    x: hotspotFields.x,
    y: hotspotFields.y,
    width: hotspotFields.width,
    height: hotspotFields.height,
    selector: hotspotFields.selector.optional(),
    label: hotspotFields.label.optional(),
    tooltip: hotspotFields.tooltip.optional(),
    tooltip_html: hotspotFields.tooltip_html.optional(),
    action: hotspotFields.action.optional(),
  })
  .strict()
  .superRefine((box, ctx) => {
    for (const p of boxProblems(box)) ctx.addIssue({ code: 'custom', path: [p.field], message: p.message });
  })
  .meta({
    examples: [
      { x: 0.72, y: 0.08, width: 0.12, height: 0.06, label: 'New invoice', tooltip: 'Start a draft invoice here.', action: { type: 'next' } },
      { x: 0.1, y: 0.4, width: 0.3, height: 0.08, action: { type: 'url', target: 'https://acme.com/pricing' } },
      {
        x: 0.4,
        y: 0.3,
        width: 0.2,
        height: 0.1,
        tooltip_html: '<p><b>Reports</b> show <a href="https://acme.com/docs">every invoice</a>.</p>',
        action: { type: 'chapter', target: 'chp_01jd3k8e4f6g8h0j2k4m6n8p0q' },
      },
    ],
  });

export const patchHotspotBody = z
  .object({
    x: hotspotFields.x.optional(),
    y: hotspotFields.y.optional(),
    width: hotspotFields.width.optional(),
    height: hotspotFields.height.optional(),
    selector: hotspotFields.selector.optional(),
    label: hotspotFields.label.optional(),
    tooltip: hotspotFields.tooltip.optional(),
    tooltip_html: hotspotFields.tooltip_html.optional(),
    action: hotspotFields.action.optional(),
  })
  .strict()
  .meta({
    examples: [
      { tooltip: 'Start a draft invoice here.' },
      { action: { type: 'goto', target: 3 } },
      { tooltip_html: 'Start a <b>draft</b> invoice here.', action: { type: 'end' } },
    ],
  });

// Where the viewer payload's schema takes it from.
export { actionAnswerSchema };

export const hotspotSchema = z
  .object({
    id: z.string(),
    step_id: z.string(),
    step_number: z.number().int(),
    x: z.number(),
    y: z.number(),
    width: z.number(),
    height: z.number(),
    selector: z.string().nullable(),
    label: z.string(),
    tooltip: z.string().meta({ description: 'Plain text; the text of `tooltip_html` when there is rich text.' }),
    tooltip_html: z.string().nullable().meta({ description: 'Sanitised rich text of the tooltip, or null.' }),
    action: actionAnswerSchema,
  })
  .meta({
    id: 'Hotspot',
    examples: [
      {
        id: 'hs_01jd3k8d3e5f7g9h1j3k5m7n9p',
        step_id: 'step_01jd3k8b1c3d5e7f9g1h3j5k7m',
        step_number: 1,
        x: 0.72,
        y: 0.08,
        width: 0.12,
        height: 0.06,
        selector: 'button#new-invoice',
        label: 'New invoice',
        tooltip: 'Start a draft invoice here.',
        tooltip_html: null,
        action: { type: 'next', target: null },
      },
    ],
  });

/** `numbers` maps step ids to their current numbers, for step_number and `goto` targets. */
export function toHotspot(row: HotspotRow, numbers: ReadonlyMap<string, number>) {
  return {
    id: row.id,
    step_id: row.stepId,
    step_number: numbers.get(row.stepId) ?? 0,
    x: row.x,
    y: row.y,
    width: row.width,
    height: row.height,
    selector: row.selector,
    label: row.label,
    tooltip: row.tooltip,
    tooltip_html: row.tooltipHtml,
    action: actionAnswer(row.actionType, row.actionTarget, numbers),
  };
}
