import { z } from 'zod';
import { brandSchema } from '../workspaces/workspaces.schemas';
import { actionAnswerSchema } from '../demos/hotspots.schemas';
import { buttonAnswerSchema, formAnswerSchema } from '../demos/story-answers.schemas';
import { formFieldSchema, STEP_KINDS } from '../demos/story.schemas';
import { configurationSchema } from '../demos/demo-configuration.schemas';
import { text, withoutNul } from '../core/text';

// Long enough for any token we issue (43 characters), short enough that nobody stores a novel in a cache key.
export const viewerParams = z.object({ token: z.string().min(16).max(100).regex(/^[A-Za-z0-9_-]+$/) });
export const viewerAssetParams = viewerParams.extend({ asset_id: text().max(40) });
export const publicAssetParams = z.object({
  digest: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'the SHA-256 of the image, 64 lowercase hex digits')
    .meta({ description: 'The SHA-256 of the image (lowercase hex), as the payload of a public link names it on the CDN.' }),
});

const gate = z.enum(['password', 'identification', 'ready']).meta({
  description: 'The next thing the viewer must do: enter the password, identify, or nothing (play).',
});

export const viewerStateSchema = z
  .object({
    gate,
    share: z.object({ require_identification: z.boolean(), has_password: z.boolean() }),
    viewer: z.object({ name: z.string().nullable(), email: z.string().nullable() }).optional(),
    fields: z.array(z.enum(['password', 'name', 'email'])).meta({
      description:
        'Addition. What the viewer must still fill, in order: `password` while the password gate is closed, `name` and ' +
        '`email` while the link asks for an identification it does not have. Empty at `ready`. POST /v1/viewer/:token/access ' +
        'takes them all in one submit. When the published demo has a gate form, a closed password gate asks for `password` ' +
        'alone: the form (`form`) comes once it is entered.',
    }),
    brand: brandSchema.meta({ description: 'Addition. The sharing workspace, for the gate to wear: name, colour, font, logo.' }),
    title: z.string().nullable().meta({
      description:
        "Addition. The demo's title as this viewer may see it. Behind a closed password gate: null (the title stays " +
        "protected), or the link's `preview_title` if it has one, or the title when the link sets `show_title_before_unlock`.",
    }),
    form: z
      .object({
        step_number: z.number().int().meta({ description: 'The form step: send it as `step_number` with the lead.' }),
        fields: z.array(formFieldSchema),
        submit_label: z.string(),
      })
      .optional()
      .meta({
        description:
          "Addition. Only at the identification gate, once the password (if any) is entered, when the published demo has a lead form marked `gate` " +
          'that asks for an e-mail address: show this form instead of name and e-mail, and send it to POST /v1/viewer/:token/leads, which ' +
          'identifies the viewer as /identify does (docs/leads.md).',
      }),
    session_token: z.string().optional().meta({
      description:
        'Only when a new viewer session was started. Same value as the cookie; a player that cannot use ' +
        'cookies (a cross-site iframe) sends it back in `X-Viewer-Session`.',
    }),
  })
  .meta({
    id: 'ViewerState',
    examples: [
      {
        gate: 'password',
        share: { require_identification: true, has_password: true },
        fields: ['password', 'name', 'email'],
        brand: { name: 'Analytical Engines', color: '#0f766e', font: 'humanist', logo_url: null },
        title: null,
      },
      {
        gate: 'ready',
        share: { require_identification: true, has_password: false },
        viewer: { name: 'Jane Doe', email: 'jane@acme.com' },
        fields: [],
        brand: { name: 'Analytical Engines', color: '#0f766e', font: 'humanist', logo_url: null },
        title: 'Create and send an invoice',
        session_token: 'kP3vZ8qR1mX6tN9wB2cF5hJ0lD4gS7aY-uE_oI2rT8w',
      },
      {
        gate: 'identification',
        share: { require_identification: true, has_password: false },
        fields: ['name', 'email'],
        brand: { name: 'Analytical Engines', color: '#0f766e', font: 'humanist', logo_url: null },
        title: 'Create and send an invoice',
        form: {
          step_number: 1,
          fields: [
            { name: 'email', label: 'Work e-mail', type: 'email', required: true },
            { name: 'name', label: 'Your name', type: 'text', required: false },
            { name: 'utm_source', label: '', type: 'hidden', required: false },
          ],
          submit_label: 'See the demo',
        },
      },
    ],
  });

export const unlockBody = z
  .object({ password: text().min(1).max(200) })
  .strict()
  .meta({ examples: [{ password: 'lighthouse-42' }] });
export const accessBody = z
  .object({
    password: text().min(1).max(200).optional().meta({ description: 'Needed while `fields` lists it.' }),
    name: text().trim().min(1).max(100).optional().meta({ description: 'Needed while `fields` lists it.' }),
    email: withoutNul(z.email()).max(254).optional().meta({ description: 'Needed while `fields` lists it.' }),
  })
  .strict()
  .meta({ examples: [{ password: 'lighthouse-42', name: 'Jane Doe', email: 'jane@acme.com' }] });
export const consentBody = z
  .object({
    granted: z.boolean().meta({
      description: 'true: the host page granted consent (the viewer cookie is set and the view gets its visitor id); false: denied or withdrawn (the cookie is expired).',
    }),
  })
  .strict()
  .meta({ examples: [{ granted: true }] });
export const consentSchema = z
  .object({
    granted: z.boolean().meta({ description: 'The decision as recorded for this request.' }),
    session: z.boolean().meta({ description: 'Whether a viewer session came with the request (header or cookie); without one there was nothing to change.' }),
  })
  .meta({ id: 'ViewerConsent', examples: [{ granted: true, session: true }] });
export const identifyBody = z
  .object({
    name: text().trim().min(1).max(100),
    email: withoutNul(z.email()).max(254),
  })
  .strict()
  .meta({ examples: [{ name: 'Jane Doe', email: 'jane@acme.com' }] });

const ASSET_URL =
  'A path on this server (`/v1/viewer/{token}/assets/{asset_id}`), to resolve against the address the payload ' +
  'was fetched from, so the player works through any host name that reaches the server; an absolute URL on ' +
  '`API_URL` when that is set.';

export const viewerDemoSchema = z
  .object({
    version: z.number().int().meta({
      description: 'The published version played (see GET /v1/demos/:id/versions): views record it.',
    }),
    title: z.string(),
    configuration: configurationSchema,
    brand: brandSchema,
    chapters: z
      .array(
        z.object({
          id: z.string(),
          title: z.string(),
          description: z.string(),
          first_step: z.number().int().nullable().meta({ description: 'The number of its first step; null for a chapter without steps.' }),
        }),
      )
      .meta({ description: 'The chapters a chapter menu offers, in order; empty for a demo without chapters.' }),
    language: z.string().nullable().meta({
      description: 'The language served (a reviewed translation the viewer’s `?lang=` picked), or null for the original. docs/translation.md.',
    }),
    languages: z.array(z.string()).meta({ description: 'The reviewed languages the published demo offers besides the original.' }),
    variables: z.record(z.string(), z.string()).meta({
      description:
        "The share link's personalisation values (Share.variables): `{{name}}` / `{{name|fallback}}` in the demo's text is " +
        'filled with them, as text; URL parameters and form answers of the same name win (docs/personalisation.md). {} when none.',
    }),
    steps: z.array(
      z.object({
        number: z.number().int(),
        kind: z.enum(STEP_KINDS).meta({ description: 'How the player shows the step: `page` for a capture with hotspots.' }),
        chapter_id: z.string().nullable(),
        title: z.string(),
        description: z.string(),
        description_html: z.string().nullable().meta({ description: 'Sanitised rich text of the description, or null.' }),
        image_url: z.string().nullable().meta({ description: ASSET_URL }),
        html_url: z.string().nullable().meta({ description: ASSET_URL }),
        width: z.number().int().nullable(),
        height: z.number().int().nullable(),
        hotspots: z.array(
          z.object({
            id: z.string(),
            x: z.number(),
            y: z.number(),
            width: z.number(),
            height: z.number(),
            selector: z.string().optional().meta({
              description:
                'Only on snapshot steps (html_url, no image_url): the element the hotspot points at, which the ' +
                'player finds in the snapshot, since an HTML capture has no layout to place the box by.',
            }),
            label: z.string(),
            tooltip: z.string(),
            tooltip_html: z.string().nullable().meta({ description: 'Sanitised rich text of the tooltip, or null.' }),
            action: actionAnswerSchema,
          }),
        ),
        buttons: z.array(buttonAnswerSchema),
        form: formAnswerSchema.optional().meta({ description: 'Only on a `form` step.' }),
      }),
    ),
  })
  .meta({
    id: 'ViewerDemo',
    examples: [
      {
        version: 2,
        title: 'Create and send an invoice',
        configuration: {
          theme_color: '#0f766e',
          progress_bar: true,
          navigation: { buttons: true, keyboard: true },
          call_to_action: { label: 'Start a free trial', url: 'https://example.com/pricing' },
          branding: { show_badge: true },
          autoplay: { enabled: false, delay_seconds: 5 },
        },
        brand: { name: 'Analytical Engines', color: '#0f766e', font: 'humanist', logo_url: null },
        chapters: [],
        language: null,
        languages: ['fr'],
        variables: { company: 'Acme', first_name: 'Dana' },
        steps: [
          {
            number: 1,
            kind: 'page',
            chapter_id: null,
            title: 'Create an invoice',
            description: 'Click **New invoice** to start a draft.',
            description_html: null,
            image_url: '/v1/viewer/Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gA/assets/ast_01jd3k8c2d4e6f8g0h2j4k6m8n',
            html_url: null,
            width: 1440,
            height: 900,
            hotspots: [
              {
                id: 'hs_01jd3k8d3e5f7g9h1j3k5m7n9p',
                x: 0.72,
                y: 0.08,
                width: 0.12,
                height: 0.06,
                label: 'New invoice',
                tooltip: 'Start a draft invoice here.',
                tooltip_html: null,
                action: { type: 'next', target: null },
              },
            ],
            buttons: [],
          },
        ],
      },
    ],
  });
