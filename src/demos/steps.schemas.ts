import { iso, timestamp } from '../core/time';
import { z } from 'zod';
import { idSchema } from '../core/ids';
import { httpUrl, text } from '../core/text';
import type { StepRow } from './demos.repo';
import type { UrlBuilder } from './demos.schemas';
import { patchedAddress } from './page-patches';

const stepText = {
  title: text().trim().max(200),
  description: text().trim().max(5000),
  page_url: httpUrl.nullable(),
};

export const createStepBody = z
  .object({
    title: stepText.title.optional(),
    description: stepText.description.optional(),
    page_url: stepText.page_url.optional(),
    number: z.number().int().min(1).optional().meta({ description: 'Where to insert it. Default: at the end.' }),
  })
  .strict()
  .meta({
    examples: [
      { title: 'Open the invoice', description: 'Click the invoice to see its lines.', page_url: 'https://app.acme.com/invoices', number: 2 },
      {},
    ],
  });

export const patchStepBody = z
  .object({
    title: stepText.title.optional(),
    description: stepText.description.optional(),
    page_url: stepText.page_url.optional(),
  })
  .strict()
  .meta({ examples: [{ title: 'Create an invoice', description: 'Click **New invoice** to start a draft.' }, { page_url: null }] });

/** A new step's or an edit's text; `number` only where the body has one (creation). */
export const toStepInput = (body: z.infer<typeof patchStepBody> & { number?: number }) => ({
  title: body.title,
  description: body.description,
  pageUrl: body.page_url,
  number: body.number,
});

export const replaceStepsBody = z
  .object({
    steps: z
      .array(
        z.union([
          idSchema('step'),
          z
            .object({
              id: idSchema('step').optional().meta({ description: 'An existing step; omit it to add a blank one.' }),
              title: stepText.title.optional(),
              description: stepText.description.optional(),
              page_url: stepText.page_url.optional(),
            })
            .strict(),
        ]),
      )
      .max(500)
      .meta({
        description:
          'The new order. Each entry is a step id or a step object; steps left out are deleted, objects ' +
          'without an id are new blank steps.',
      }),
  })
  .strict()
  .meta({
    examples: [
      { steps: ['step_01jd3k8b1c3d5e7f9g1h3j5k7n', 'step_01jd3k8b1c3d5e7f9g1h3j5k7m', { title: 'Send it', description: 'Click **Send** to e-mail the invoice.' }] },
    ],
  });
export type ReplaceStepsEntry = z.infer<typeof replaceStepsBody>['steps'][number];

export const stepSchema = z
  .object({
    id: z.string(),
    number: z.number().int(),
    title: z.string(),
    description: z.string(),
    page_url: z.string().nullable(),
    image_url: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    html_url: z.string().nullable(),
    edited_at: timestamp.nullable().meta({
      description:
        'When a person last made or changed this step (its text, image or hotspots) through the API or the ' +
        'editor; null for a generated step nobody has touched. Reordering does not count. ' +
        '`POST /v1/demos/{id}/generate` with `keep_edited_steps` keeps the steps that have it.',
    }),
  })
  .meta({
    id: 'Step',
    examples: [
      {
        id: 'step_01jd3k8b1c3d5e7f9g1h3j5k7m',
        number: 1,
        title: 'Create an invoice',
        description: 'Click **New invoice** to start a draft.',
        page_url: 'https://app.acme.com/invoices',
        image_url: 'https://api.example.com/v1/demos/demo_01jd3k7q9x8v2m4n6p0r5s7t9w/assets/ast_01jd3k8c2d4e6f8g0h2j4k6m8n',
        width: 1440,
        height: 900,
        html_url: null,
        edited_at: '2026-11-21T10:20:00.000Z',
      },
    ],
  });

export function toStep(row: StepRow, urls: UrlBuilder) {
  return {
    id: row.id,
    number: row.position,
    title: row.title,
    description: row.description,
    page_url: row.pageUrl,
    image_url: urls.asset(row.demoId, row.imageAssetId),
    width: row.width,
    height: row.height,
    // With `?patches=` when the step has patches: the address changes with them, and names them (page-patches.ts).
    html_url: patchedAddress(urls.asset(row.demoId, row.htmlAssetId), row.patches),
    edited_at: iso(row.editedAt),
  };
}
