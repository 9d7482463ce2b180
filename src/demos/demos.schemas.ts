import { z } from 'zod';
import { idSchema } from '../core/ids';
import { paginationQuery } from '../core/pagination';
import { iso, timestamp } from '../core/time';
import { shareUrls } from '../core/share-urls';
import type { DemoRow, HotspotRow, StepRow } from './demos.repo';
import { DEMO_STATUSES, type DemoStatus, GENERATION_STATUSES, HOTSPOT_ACTIONS } from './demos.tables';
import { text, withoutNul } from '../core/text';

const httpUrl = withoutNul(z.url({ protocol: /^https?$/ })).max(2048).meta({ example: 'https://example.com/pricing' });

export const demoParams = z.object({ id: idSchema('demo') });
export const stepParams = demoParams.extend({ step_id: idSchema('step') });
export const hotspotParams = stepParams.extend({ hotspot_id: idSchema('hotspot') });
export const assetParams = demoParams.extend({ asset_id: idSchema('asset') });

// ---- configuration -------------------------------------------------------------------------------

export const DEFAULT_CONFIGURATION = {
  theme_color: '#4f46e5',
  progress_bar: true,
  navigation: { buttons: true, keyboard: true },
  call_to_action: null as { label: string; url: string } | null,
  branding: { show_badge: true },
  autoplay: { enabled: false, delay_seconds: 5 },
};
export type Configuration = typeof DEFAULT_CONFIGURATION;

const configurationShape = {
  theme_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour such as #4f46e5')
    .meta({ description: 'Accent colour of the player (hotspots, buttons, progress bar).' }),
  progress_bar: z.boolean().meta({ description: 'Show a progress bar while playing.' }),
  navigation: z
    .object({
      buttons: z.boolean().meta({ description: 'Show back/next buttons.' }),
      keyboard: z.boolean().meta({ description: 'Arrow keys move between steps.' }),
    })
    .strict(),
  call_to_action: z
    .object({ label: text().trim().min(1).max(60), url: httpUrl })
    .strict()
    .nullable()
    .meta({ description: 'Button shown at the end of the demo, or null for none.' }),
  branding: z
    .object({ show_badge: z.boolean().meta({ description: 'Show the "Made with Demoshare" badge.' }) })
    .strict(),
  autoplay: z
    .object({ enabled: z.boolean(), delay_seconds: z.number().int().min(1).max(60) })
    .strict()
    .meta({ description: 'Advance by itself after `delay_seconds` on each step.' }),
};

export const configurationSchema = z.object(configurationShape).meta({ id: 'DemoConfiguration' });

/** A change to the configuration: top-level keys are optional, nested objects may be partial. */
export const configurationPatch = z
  .object({
    theme_color: configurationShape.theme_color.optional(),
    progress_bar: configurationShape.progress_bar.optional(),
    navigation: configurationShape.navigation.partial().optional(),
    call_to_action: configurationShape.call_to_action.optional(),
    branding: configurationShape.branding.partial().optional(),
    autoplay: configurationShape.autoplay.partial().optional(),
  })
  .strict();
export type ConfigurationPatch = z.infer<typeof configurationPatch>;

/** Stored configuration over the defaults, so demos made before a new option existed still read whole. */
export function resolveConfiguration(stored: Record<string, unknown> | null | undefined): Configuration {
  return mergeConfiguration(DEFAULT_CONFIGURATION, (stored ?? {}) as ConfigurationPatch);
}

export function mergeConfiguration(base: Configuration, patch: ConfigurationPatch): Configuration {
  return {
    theme_color: patch.theme_color ?? base.theme_color,
    progress_bar: patch.progress_bar ?? base.progress_bar,
    navigation: { ...base.navigation, ...(patch.navigation ?? {}) },
    call_to_action: patch.call_to_action === undefined ? base.call_to_action : patch.call_to_action,
    branding: { ...base.branding, ...(patch.branding ?? {}) },
    autoplay: { ...base.autoplay, ...(patch.autoplay ?? {}) },
  };
}

// ---- requests ------------------------------------------------------------------------------------

const title = text().trim().min(1).max(200);

export const listDemosQuery = paginationQuery
  .extend({
    status: z.enum(DEMO_STATUSES).optional().meta({ description: 'Only demos in this status.' }),
    search: text()
      .trim()
      .max(200)
      .optional()
      .meta({ description: 'Case-insensitive substring of the title or the source URL.' }),
  })
  .strict();

export const createDemoBody = z
  .object({
    title: title.optional().meta({ description: 'Required unless generate_with_ai is true (then the page title).' }),
    source_url: httpUrl.optional().meta({ description: 'Page to capture. Required with generate_with_ai.' }),
    type: z.literal('interactive').default('interactive'),
    generate_with_ai: z.boolean().default(false),
    configuration: configurationPatch.optional(),
  })
  .strict();

export const patchDemoBody = z
  .object({
    title: title.optional(),
    status: z
      .enum(['draft', 'published', 'archived'])
      .optional()
      .meta({
        description:
          'draft → published (needs a step), published → draft, draft|published → archived, archived → draft. ' +
          'A generating demo cannot change status (409).',
      }),
    configuration: configurationPatch.optional(),
  })
  .strict();

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
  .strict();

export const patchStepBody = z
  .object({
    title: stepText.title.optional(),
    description: stepText.description.optional(),
    page_url: stepText.page_url.optional(),
  })
  .strict();

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
  .strict();
export type ReplaceStepsEntry = z.infer<typeof replaceStepsBody>['steps'][number];

const fraction = z.number().min(0).max(1);
const EPSILON = 1e-6;

const actionSchema = z
  .object({
    type: z.enum(HOTSPOT_ACTIONS),
    target: z
      .union([z.number().int().min(1), text().max(2048)])
      .nullable()
      .optional()
      .meta({ description: '`goto`: a step number or step id; `url`: an http(s) address; `next`: none.' }),
  })
  .strict();
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
  tooltip: text().trim().max(2000),
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
    action: hotspotFields.action.optional(),
  })
  .strict()
  .superRefine((box, ctx) => {
    for (const p of boxProblems(box)) ctx.addIssue({ code: 'custom', path: [p.field], message: p.message });
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
    action: hotspotFields.action.optional(),
  })
  .strict();

// ---- responses -----------------------------------------------------------------------------------

export const generationSchema = z
  .object({
    status: z.enum(GENERATION_STATUSES),
    error: z.string().nullable(),
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
    capture_mode: z.string().nullable().meta({ description: '`chromium` or `html`.' }),
    writer: z.string().nullable().meta({ description: '`builtin` or `ai`.' }),
  })
  .meta({ id: 'DemoGeneration' });

export const demoSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    source_url: z.string().nullable(),
    type: z.string(),
    status: z.enum(DEMO_STATUSES),
    generate_with_ai: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
    published_at: timestamp.nullable(),
    thumbnail_url: z.string().nullable(),
    step_count: z.number().int(),
    generation: generationSchema,
    share_url: z.string().nullable().meta({ description: 'The first active share link, while published.' }),
    created_by: z.string().nullable().meta({ description: 'Member id of the creator.' }),
  })
  .meta({ id: 'Demo' });

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
  })
  .meta({ id: 'Step' });

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
    tooltip: z.string(),
    action: z.object({
      type: z.enum(HOTSPOT_ACTIONS),
      target: z.union([z.number(), z.string()]).nullable(),
    }),
  })
  .meta({ id: 'Hotspot' });

export const demoDetailSchema = demoSchema
  .extend({
    steps: z.array(stepSchema),
    hotspots: z.array(hotspotSchema),
    configuration: configurationSchema,
  })
  .meta({ id: 'DemoDetail' });

// ---- row → JSON ----------------------------------------------------------------------------------

/** Where assets are fetched from: the API origin, under the owning demo. */
export interface UrlBuilder {
  asset(demoId: string, assetId: string | null): string | null;
  share(token: string | null): string | null;
}

/** Assets live on the API origin, share links on the web app's. */
export function demoUrls(apiUrl: string, appUrl: string): UrlBuilder {
  const base = apiUrl.replace(/\/+$/, '');
  const shares = shareUrls(appUrl);
  return {
    asset: (demoId, assetId) => (assetId ? `${base}/v1/demos/${demoId}/assets/${assetId}` : null),
    share: (token) => (token ? shares.page(token) : null),
  };
}

export function toDemo(row: DemoRow, stepCount: number, urls: UrlBuilder, shareToken: string | null = null) {
  return {
    id: row.id,
    title: row.title,
    source_url: row.sourceUrl,
    type: row.type,
    status: row.status as DemoStatus,
    generate_with_ai: row.generateWithAi,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    published_at: iso(row.publishedAt),
    thumbnail_url: urls.asset(row.id, row.thumbnailAssetId),
    step_count: stepCount,
    generation: {
      status: row.generationStatus,
      error: row.generationError,
      started_at: iso(row.generationStartedAt),
      finished_at: iso(row.generationFinishedAt),
      capture_mode: row.generationCaptureMode,
      writer: row.generationWriter,
    },
    share_url: row.status === 'published' ? urls.share(shareToken) : null,
    created_by: row.createdById,
  };
}

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
    html_url: urls.asset(row.demoId, row.htmlAssetId),
  };
}

/** `numbers` maps step ids to their current numbers, for step_number and `goto` targets. */
export function toHotspot(row: HotspotRow, numbers: ReadonlyMap<string, number>) {
  let target: number | string | null = row.actionTarget;
  if (row.actionType === 'goto') target = row.actionTarget ? (numbers.get(row.actionTarget) ?? null) : null;
  if (row.actionType === 'next') target = null;
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
    action: { type: row.actionType, target },
  };
}

export function toDemoDetail(
  demo: DemoRow,
  steps: StepRow[],
  hotspots: HotspotRow[],
  urls: UrlBuilder,
  shareToken: string | null = null,
) {
  const numbers = new Map(steps.map((s) => [s.id, s.position]));
  return {
    ...toDemo(demo, steps.length, urls, shareToken),
    steps: steps.map((s) => toStep(s, urls)),
    hotspots: hotspots.map((h) => toHotspot(h, numbers)),
    configuration: resolveConfiguration(demo.configuration),
  };
}
