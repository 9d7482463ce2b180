// The demo file's `demo.json`, version 1, as zod: what import and push validate, and what the published JSON Schema is made from.
import { z } from 'zod';
import { text } from '../core/text';
import { configurationPatch } from '../demos/demo-configuration.schemas';
import { RICH_TEXT_MAX } from '../demos/rich-text';
import { ACTION_TYPES, buttonSchema, formSchema, PATCH_OPS, STEP_KINDS } from '../demos/story.schemas';

export const FORMAT_NAME = 'demoshare-demo';
/** The version this server writes; older documents are upgraded on the way in (demo-document.upgrade.ts). */
export const FORMAT_VERSION = 1;
/** Where an instance serves the JSON Schema of version 1 (relative to APP_URL). */
export const SCHEMA_PATH = '/schemas/demo/v1.json';

/** A demo's key: what `demoshare demos push` finds it by, unique in a workspace. */
export const KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/;
export const keySchema = text()
  .regex(KEY_PATTERN, 'must be 1-100 lowercase letters, digits, ., _ or -, starting with a letter or digit')
  .meta({ description: 'Stable key of the demo in its workspace: a push creates or updates the demo with this key.', example: 'onboarding' });

/** `sha256:` and the lowercase hex SHA-256 of a file `assets/<hex>.<ext>` beside demo.json. */
export const ASSET_REF = /^sha256:[0-9a-f]{64}$/;
const assetRef = z
  .string()
  .regex(ASSET_REF, 'must be sha256: followed by 64 lowercase hex digits')
  .meta({ description: 'An asset beside demo.json: `sha256:<hex>` names the file `assets/<hex>.<ext>`.' });

const LOCAL_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const localId = z
  .string()
  .regex(LOCAL_ID, 'must be 1-64 lowercase letters, digits, - or _')
  .meta({ description: 'An id local to this document (export writes `step-1`, `chapter-1`…): actions name steps and chapters by it.' });

const fraction = z.number().min(0).max(1);

export const documentActionSchema = z
  .object({
    type: z.enum(ACTION_TYPES),
    target: text()
      .max(2048)
      .nullable()
      .default(null)
      .meta({
        description:
          '`goto` and `submit`: the `id` of a step of this document (`submit` may have none); `chapter`: the `id` of a chapter; ' +
          '`url` and `demo`: an http(s) address; otherwise null.',
      }),
  })
  .strict()
  .meta({ title: 'Action' });

const documentButtonSchema = buttonSchema.extend({ action: documentActionSchema }).strict().meta({ title: 'Button' });

export const documentHotspotSchema = z
  .object({
    x: fraction,
    y: fraction,
    width: z.number().gt(0).max(1),
    height: z.number().gt(0).max(1),
    selector: text().max(1000).nullable().default(null),
    label: text().max(200).default(''),
    tooltip: text().max(2000).default(''),
    tooltip_html: text().max(RICH_TEXT_MAX).nullable().default(null).meta({ description: 'Rich text (b, i, a, lists); sanitised on import.' }),
    action: documentActionSchema.default({ type: 'next', target: null }),
  })
  .strict()
  .meta({ title: 'Hotspot', description: 'A clickable box, in fractions (0..1) of the step image, inside it (x + width and y + height at most 1).' });

export const documentPatchSchema = z
  .object({
    selector: text().min(1).max(1000),
    op: z.enum(PATCH_OPS),
    value: text()
      .max(5000)
      .optional()
      .meta({ description: '`text`: the new text; `image`: the asset (`sha256:<hex>`) the image becomes; `hide`: none.' }),
  })
  .strict()
  .meta({ title: 'PagePatch' });

export const documentStepSchema = z
  .object({
    id: localId,
    kind: z.enum(STEP_KINDS).default('page'),
    chapter: localId.nullable().default(null).meta({ description: 'The `id` of the chapter the step belongs to, or null.' }),
    title: text().max(200).default(''),
    description: text().max(5000).default('').meta({ description: 'Plain text (of `description_html` when it is set).' }),
    description_html: text().max(RICH_TEXT_MAX).nullable().default(null).meta({ description: 'Rich text; sanitised on import.' }),
    page_url: text().max(2048).nullable().default(null),
    width: z.number().int().min(1).max(20000).nullable().default(null),
    height: z.number().int().min(1).max(20000).nullable().default(null),
    image: assetRef.nullable().default(null).meta({ description: 'The screenshot: PNG, JPEG or WebP.' }),
    html: assetRef.nullable().default(null).meta({ description: 'The captured page (HTML snapshot); cleaned on import as recordings are.' }),
    hotspots: z.array(documentHotspotSchema).max(50).default([]),
    content: z
      .object({ buttons: z.array(documentButtonSchema).max(8).default([]), form: formSchema.optional() })
      .strict()
      .default({ buttons: [] })
      .meta({ description: 'Buttons of every kind of step, and the lead form of a `form` step.' }),
    patches: z.array(documentPatchSchema).max(100).default([]),
  })
  .strict()
  .meta({ title: 'Step' });

export const documentChapterSchema = z
  .object({ id: localId, title: text().min(1).max(120), description: text().max(500).default('') })
  .strict()
  .meta({ title: 'Chapter' });

/** The most steps a demo file may hold. */
export const MAX_STEPS = 500;

export const demoDocumentSchema = z
  .object({
    $schema: z.string().max(2048).optional().meta({ description: 'The JSON Schema this document follows (informative).' }),
    format: z.literal(FORMAT_NAME),
    version: z.literal(FORMAT_VERSION).meta({ description: 'The format version; older ones are upgraded on import.' }),
    key: keySchema.optional(),
    title: text().min(1).max(200),
    source_url: text().max(2048).nullable().default(null).meta({ description: 'The page the demo was first made from, if any.' }),
    configuration: configurationPatch
      .default({})
      .meta({ description: 'Theme colour, progress bar, navigation, call to action, branding, autoplay (defaults for what is left out).' }),
    chapters: z.array(documentChapterSchema).max(100).default([]),
    steps: z.array(documentStepSchema).max(MAX_STEPS),
  })
  .strict()
  .meta({
    title: 'Demoshare demo file (demo.json), version 1',
    description: 'A Demoshare demo as a file: everything it shows, nothing of its workspace. docs/demo-format.md.',
  });

export type DemoDocument = z.output<typeof demoDocumentSchema>;
export type DocumentStep = DemoDocument['steps'][number];
