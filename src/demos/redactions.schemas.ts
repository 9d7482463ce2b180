import { z } from 'zod';
import { text } from '../core/text';
import { boxProblems } from './hotspots.schemas';
import { selectorProblem } from './redact-snapshot';

export const MAX_REDACTION_REGIONS = 50;
export const MAX_REDACTION_SELECTORS = 50;
export const MAX_REDACTION_SELECTOR_LENGTH = 500;
export const REDACTION_STYLES = ['blur', 'solid'] as const;

const fraction = z.number().min(0).max(1);

const regionSchema = z
  .object({
    x: fraction,
    y: fraction,
    width: fraction.refine((v) => v > 0, 'must be greater than 0'),
    height: fraction.refine((v) => v > 0, 'must be greater than 0'),
  })
  .strict()
  .superRefine((box, ctx) => {
    for (const p of boxProblems(box)) ctx.addIssue({ code: 'custom', path: [p.field], message: p.message });
  })
  .meta({ description: 'A rectangle in fractions (0..1) of the step image, inside it (x + width ≤ 1, y + height ≤ 1).' });

const selectorSchema = text()
  .max(MAX_REDACTION_SELECTOR_LENGTH)
  .superRefine((selector, ctx) => {
    const problem = selectorProblem(selector);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ example: '#account > .email' });

export const redactionsBody = z
  .object({
    regions: z
      .array(regionSchema)
      .max(MAX_REDACTION_REGIONS)
      .optional()
      .meta({ description: 'Areas of the step image to obscure. Needs a step with an image.' }),
    selectors: z
      .array(selectorSchema)
      .max(MAX_REDACTION_SELECTORS)
      .optional()
      .meta({
        description:
          'CSS selectors of elements of the step’s HTML snapshot to obscure (with everything inside them). Needs ' +
          'a step with a snapshot; each selector must match at least one element. Pseudo-elements are not supported.',
      }),
    style: z
      .enum(REDACTION_STYLES)
      .default('blur')
      .meta({
        description:
          '`blur` (default): regions are pixelated and blurred; `solid`: filled with a dark grey. Snapshot ' +
          'elements are treated the same either way (their text becomes bullets and they render blurred).',
      }),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.regions?.length ?? 0) + (body.selectors?.length ?? 0) === 0) {
      ctx.addIssue({ code: 'custom', path: ['regions'], message: 'give at least one region or selector' });
    }
  })
  .meta({
    examples: [
      { regions: [{ x: 0.62, y: 0.02, width: 0.2, height: 0.05 }] },
      { selectors: ['#account > .email'], style: 'solid' },
    ],
  });

export type RedactionsInput = z.output<typeof redactionsBody>;
