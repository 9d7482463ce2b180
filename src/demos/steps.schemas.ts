import { iso, timestamp } from '../core/time';
import { z } from 'zod';
import { idSchema } from '../core/ids';
import { httpUrl, text } from '../core/text';
import type { StepRow } from './demos.repo';
import type { UrlBuilder } from './demos.schemas';
import { patchedAddress } from './page-patches';
import { RICH_TEXT_MAX } from './rich-text';
import { contentAnswer, stepContentAnswerSchema } from './story-answers.schemas';
import { pagePatchSchema, STEP_KINDS, stepContentSchema } from './story.schemas';

const stepText = {
  title: text().trim().max(200),
  description: text().trim().max(5000),
  page_url: httpUrl.nullable(),
};

/** The story fields a step request may carry (docs/interactive-demos.md), on creation and on edits. */
const storyFields = {
  kind: z.enum(STEP_KINDS).optional().meta({
    description:
      '`page` (default: a captured screen with hotspots), `cover`, `chapter_menu`, `form` (needs `content.form`) or ' +
      '`end`. Only a form step has a form: a step that stops being one loses it.',
  }),
  chapter_id: idSchema('chapter').nullable().optional().meta({ description: 'A chapter of this demo; null takes the step out of its chapter.' }),
  content: stepContentSchema.optional().meta({
    description:
      'Buttons (at most 8; ids unique in the step) and, on a form step, the form (field names unique). Button actions ' +
      'are checked as hotspot actions: `goto`/`submit` a step of this demo (number or id), `chapter` one of its chapters, ' +
      '`url`/`demo` an http(s) address. Replaces the whole content.',
  }),
  patches: z.array(pagePatchSchema).max(100).optional().meta({
    description: 'Edits to the captured page (at most 100), applied when its snapshot is served. Replaces the whole list.',
  }),
  description_html: text()
    .max(RICH_TEXT_MAX)
    .nullable()
    .optional()
    .meta({
      description:
        'Rich text: b, strong, i, em, a (http(s) and mailto links, opened in a new tab), ul, ol, li, p, br; anything ' +
        'else is removed on the server. When given, `description` becomes its plain text (and a `description` sent ' +
        'with it is ignored). Null removes the rich text and keeps `description`.',
    }),
};

export const createStepBody = z
  .object({
    title: stepText.title.optional(),
    description: stepText.description.optional(),
    page_url: stepText.page_url.optional(),
    number: z.number().int().min(1).optional().meta({ description: 'Where to insert it. Default: at the end.' }),
    ...storyFields,
  })
  .strict()
  .meta({
    examples: [
      { title: 'Open the invoice', description: 'Click the invoice to see its lines.', page_url: 'https://app.acme.com/invoices', number: 2 },
      {},
      {
        kind: 'cover',
        title: 'See Acme invoicing in 2 minutes',
        description_html: '<p>Send your <b>first invoice</b> today.</p>',
        content: { buttons: [{ id: 'start', label: 'Start the tour', style: 'primary', action: { type: 'next' } }] },
        number: 1,
      },
      {
        kind: 'form',
        title: 'Where shall we send the details?',
        content: {
          buttons: [],
          form: {
            fields: [
              { name: 'email', label: 'Work e-mail', type: 'email', required: true },
              { name: 'company', label: 'Company', type: 'text' },
            ],
            submit_label: 'Continue',
          },
        },
      },
    ],
  });

export const patchStepBody = z
  .object({
    title: stepText.title.optional(),
    description: stepText.description.optional(),
    page_url: stepText.page_url.optional(),
    ...storyFields,
  })
  .strict()
  .meta({
    examples: [
      { title: 'Create an invoice', description: 'Click **New invoice** to start a draft.' },
      { page_url: null },
      { chapter_id: 'chp_01jd3k8e4f6g8h0j2k4m6n8p0q' },
      {
        kind: 'end',
        content: {
          buttons: [
            { id: 'meet', label: 'Book a meeting', style: 'primary', cta: 'book_meeting', action: { type: 'url', target: 'https://acme.com/meet' } },
            { id: 'again', label: 'Watch again', style: 'secondary', cta: 'restart', action: { type: 'restart' } },
          ],
        },
      },
      { patches: [{ selector: 'h1.greeting', op: 'text', value: 'Welcome, {{first_name|there}}' }, { selector: '#cookie-banner', op: 'hide' }] },
    ],
  });

/** A new step's or an edit's fields; `number` only where the body has one (creation). */
export const toStepInput = (body: z.output<typeof patchStepBody> & { number?: number }) => ({
  title: body.title,
  description: body.description,
  pageUrl: body.page_url,
  number: body.number,
  kind: body.kind,
  chapterId: body.chapter_id,
  content: body.content,
  patches: body.patches,
  descriptionHtml: body.description_html,
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
    kind: z.enum(STEP_KINDS).meta({ description: 'What the step is: `page` for every step made before interactive demos.' }),
    chapter_id: z.string().nullable().meta({ description: 'The chapter the step belongs to, or null.' }),
    content: stepContentAnswerSchema,
    patches: z.array(pagePatchSchema).meta({ description: 'Edits to the captured page, applied when its snapshot is served.' }),
    description_html: z.string().nullable().meta({ description: 'Sanitised rich text; `description` is its plain text. Null when there is none.' }),
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
        kind: 'page',
        chapter_id: null,
        content: { buttons: [] },
        patches: [],
        description_html: null,
        edited_at: '2026-11-21T10:20:00.000Z',
      },
    ],
  });

/** `numbers` maps the demo's step ids to their numbers, for the targets of the step's buttons. */
export function toStep(row: StepRow, urls: UrlBuilder, numbers: ReadonlyMap<string, number>) {
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
    kind: row.kind,
    chapter_id: row.chapterId,
    content: contentAnswer(row.content, numbers),
    patches: row.patches,
    description_html: row.descriptionHtml,
    edited_at: iso(row.editedAt),
  };
}
