import { z } from 'zod';
import type { Config } from '../config';
import { shareUrls } from '../core/share-urls';
import { cursorPaginationQuery } from '../core/pagination';
import { httpUrl, text } from '../core/text';
import { iso, timestamp } from '../core/time';
import { configurationPatch, configurationSchema, DEFAULT_CONFIGURATION, resolveConfiguration } from './demo-configuration.schemas';
import type { DemoRow, HotspotRow, StepRow } from './demos.repo';
import { DEMO_STATUSES, type DemoStatus, GENERATION_ERROR_CODES, GENERATION_STATUSES } from './demos.tables';
import type { ChapterRow } from './chapters.repo';
import { chapterSchema, toChapter } from './chapters.schemas';
import { hotspotSchema, toHotspot } from './hotspots.schemas';
import { problemsOfContent, STORY_PROBLEM_CODES } from './story-graph';
import { stepSchema, toStep } from './steps.schemas';

// ---- requests ------------------------------------------------------------------------------------

const title = text().trim().min(1).max(200);

export const listDemosQuery = cursorPaginationQuery
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
    capture_mode: z
      .enum(['auto', 'chromium', 'html'])
      .default('auto')
      .meta({
        description:
          'How generate_with_ai captures source_url. `auto` (default): in a browser (screenshots, measured hotspots) when the ' +
          'server has one (CHROMIUM_PATH), else as HTML. `chromium`: in the browser; the generation fails when the server has ' +
          'none. `html`: the page’s HTML without a browser (faster, no screenshots). The mode used is `generation.capture_mode`.',
      }),
    configuration: configurationPatch.optional(),
  })
  .strict()
  .meta({
    examples: [
      { title: 'Onboarding tour' },
      { source_url: 'https://app.example.com/onboarding', generate_with_ai: true },
    ],
  });

export const toCreateDemoInput = (body: z.infer<typeof createDemoBody>) => ({
  title: body.title,
  sourceUrl: body.source_url,
  type: body.type,
  generateWithAi: body.generate_with_ai,
  captureMode: body.capture_mode === 'auto' ? undefined : body.capture_mode,
  configuration: body.configuration,
});

export const patchDemoBody = z
  .object({
    title: title.optional(),
    status: z
      .enum(['draft', 'published', 'archived'])
      .optional()
      .meta({
        description:
          'draft → published (needs a step; the draft becomes a new version), published → draft, ' +
          'draft|published → archived, archived → draft. On a published demo, publish edits with ' +
          'POST /v1/demos/:id/publish. ' +
          'A generating demo cannot change status (409).',
      }),
    configuration: configurationPatch.optional(),
  })
  .strict()
  .meta({ examples: [{ status: 'published' }, { title: 'Onboarding tour (2027)' }] });

// ---- responses -----------------------------------------------------------------------------------

/** A published demo of three steps, as the API answers it (the examples of the document). */
const DEMO_EXAMPLE = {
  id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w',
  title: 'Onboarding tour',
  source_url: 'https://app.example.com/onboarding',
  type: 'interactive',
  status: 'published',
  generate_with_ai: true,
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:05:00.000Z',
  published_at: '2026-11-21T10:05:00.000Z',
  thumbnail_url: 'https://demos.example.com/v1/demos/demo_01jd3k7q9x8v2m4n6p0r5s7t9w/assets/asset_01jd3k7r2b5c8d1e4f7g0h3j6k',
  step_count: 3,
  generation: {
    status: 'succeeded',
    error: null,
    error_code: null,
    started_at: '2026-11-21T10:00:00.000Z',
    finished_at: '2026-11-21T10:00:09.000Z',
    capture_mode: 'chromium',
    writer: 'builtin',
  },
  share_url: 'https://demos.example.com/s/Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gA',
  created_by: 'mem_01jd3k6z1a4b7c0d3e6f9g2h5j',
  published_version: 1,
} as const;

export const generationSchema = z
  .object({
    status: z.enum(GENERATION_STATUSES),
    error: z.string().nullable().meta({
      description: 'Why the last generation failed, in words: what happened, then what to do. Null unless it failed.',
    }),
    error_code: z.enum(GENERATION_ERROR_CODES).nullable().meta({
      description:
        'The kind of failure, for clients to act on: `blocked_address` (a private or loopback address; ALLOW_PRIVATE_NETWORK_CIDRS allows it), ' +
        '`dns_failure`, `unreachable`, `timeout`, `tls_error`, `http_error` (the site answered 4xx/5xx), `not_a_page`, `invalid_address`, ' +
        '`nothing_to_capture`, `interrupted` (the worker stopped), `failed` (anything else). Null unless it failed.',
    }),
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
    published_version: z.number().int().nullable().meta({
      description:
        'While published: the number of the version viewers are served (see GET /v1/demos/:id/versions). ' +
        'Edits change the draft, not this version, until POST /v1/demos/:id/publish. Null otherwise.',
    }),
  })
  .meta({ id: 'Demo', examples: [DEMO_EXAMPLE] });

export const storyProblemSchema = z
  .object({
    code: z.enum(STORY_PROBLEM_CODES),
    message: z.string().meta({ description: 'In words, naming the step (number and title).' }),
    step_number: z.number().int().nullable().meta({ description: 'The step it is on; null for a chapter or the story as a whole.' }),
    element_id: z.string().nullable().meta({ description: 'The hotspot or button whose action is wrong, if it is one.' }),
    chapter_id: z.string().nullable().meta({ description: 'The chapter it is about, if it is one.' }),
  })
  .meta({
    id: 'StoryProblem',
    examples: [
      {
        code: 'unreachable_step',
        message: 'Step 4 (“Reports”) cannot be reached from step 1: no action or Next leads to it',
        step_number: 4,
        element_id: null,
        chapter_id: null,
      },
    ],
  });

export const demoDetailSchema = demoSchema
  .extend({
    steps: z.array(stepSchema),
    hotspots: z.array(hotspotSchema),
    chapters: z.array(chapterSchema).meta({ description: 'The chapters of the story, in menu order; empty for a linear demo.' }),
    story_problems: z.array(storyProblemSchema).meta({
      description:
        'What would lose a viewer in the story (docs/interactive-demos.md): steps no path from step 1 reaches, actions aimed at ' +
        'a deleted step or chapter, chapters without steps, form steps without a form, no way to the end. Publishing ' +
        'refuses a demo that has any (422 `validation_error`). Always empty for a linear demo.',
    }),
    configuration: configurationSchema,
    has_unpublished_changes: z.boolean().meta({
      description:
        'Published and the draft (title, configuration, steps, hotspots) differs from the published ' +
        'version: viewers see the version until the changes are published. Always false when not published.',
    }),
  })
  .meta({
    id: 'DemoDetail',
    // Steps and hotspots have examples of their own (Step, Hotspot): here a demo as it starts, without them.
    examples: [
      {
        ...DEMO_EXAMPLE,
        status: 'draft',
        published_at: null,
        thumbnail_url: null,
        step_count: 0,
        generate_with_ai: false,
        generation: { status: 'none', error: null, error_code: null, started_at: null, finished_at: null, capture_mode: null, writer: null },
        share_url: null,
        published_version: null,
        steps: [],
        hotspots: [],
        chapters: [],
        story_problems: [],
        configuration: { ...DEFAULT_CONFIGURATION, call_to_action: { label: 'Start a trial', url: 'https://app.example.com/signup' } },
        has_unpublished_changes: false,
      },
    ],
  });


/** What a list item shows of a demo (the list selects these columns only). */
export type DemoSummaryRow = Pick<
  DemoRow,
  | 'id'
  | 'title'
  | 'sourceUrl'
  | 'type'
  | 'status'
  | 'generateWithAi'
  | 'createdAt'
  | 'updatedAt'
  | 'publishedAt'
  | 'thumbnailAssetId'
  | 'generationStatus'
  | 'generationError'
  | 'generationErrorCode'
  | 'generationStartedAt'
  | 'generationFinishedAt'
  | 'generationCaptureMode'
  | 'generationWriter'
  | 'createdById'
>;

export function toDemo(
  row: DemoSummaryRow,
  stepCount: number,
  urls: UrlBuilder,
  shareToken: string | null = null,
  latestVersion: number | null = null,
) {
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
      error_code: row.generationErrorCode ?? (row.generationError ? 'failed' : null),
      started_at: iso(row.generationStartedAt),
      finished_at: iso(row.generationFinishedAt),
      capture_mode: row.generationCaptureMode,
      writer: row.generationWriter,
    },
    share_url: row.status === 'published' ? urls.share(shareToken) : null,
    created_by: row.createdById,
    published_version: row.status === 'published' ? latestVersion : null,
  };
}

export function toDemoDetail(
  found: {
    demo: DemoRow;
    steps: StepRow[];
    hotspots: HotspotRow[];
    chapters: ChapterRow[];
    shareToken: string | null;
    publishing: { latestVersion: number | null; hasUnpublishedChanges: boolean };
    /** The workspace's, which a demo without a theme colour of its own takes. */
    brandColor: string | null;
  },
  urls: UrlBuilder,
) {
  const { demo, steps, hotspots, chapters, publishing } = found;
  const numbers = new Map(steps.map((s) => [s.id, s.position]));
  return {
    ...toDemo(demo, steps.length, urls, found.shareToken, publishing.latestVersion),
    has_unpublished_changes: publishing.hasUnpublishedChanges,
    steps: steps.map((s) => toStep(s, urls, numbers)),
    hotspots: hotspots.map((h) => toHotspot(h, numbers)),
    chapters: chapters.map((c) => toChapter(c, steps)),
    story_problems: problemsOfContent(found),
    configuration: resolveConfiguration(demo.configuration, found.brandColor),
  };
}

export const regenerateBody = z
  .object({
    keep_edited_steps: z.boolean().default(false).meta({
      description: 'Keep the steps a person made or changed (`edited_at` set) and replace only the others.',
    }),
  })
  .strict()
  // No body at all arrives as null: the option is off.
  .nullish()
  .meta({ examples: [{ keep_edited_steps: true }, {}] });

/** Where assets are fetched from: the API origin, under the owning demo. */
export interface UrlBuilder {
  asset(demoId: string, assetId: string | null): string | null;
  share(token: string | null): string | null;
}

/** {@link demoUrls} for this server: assets on API_URL (APP_URL when unset), share links on APP_URL. */
export function demoUrlsOf(config: Pick<Config, 'API_URL' | 'APP_URL'>): UrlBuilder {
  return demoUrls(config.API_URL ?? config.APP_URL, config.APP_URL);
}

/** Builders by origin pair: every read of a demo asks for one, and there are as many pairs as custom domains. */
const builders = new Map<string, UrlBuilder>();
const BUILDERS_MAX = 1_000;

/** Assets live on the API origin, share links on the web app's. */
export function demoUrls(apiUrl: string, appUrl: string): UrlBuilder {
  const key = `${apiUrl} ${appUrl}`;
  const known = builders.get(key);
  if (known) return known;
  const base = apiUrl.replace(/\/+$/, '');
  const shares = shareUrls(appUrl);
  const built: UrlBuilder = {
    asset: (demoId, assetId) => (assetId ? `${base}/v1/demos/${demoId}/assets/${assetId}` : null),
    share: (token) => (token ? shares.page(token) : null),
  };
  if (builders.size >= BUILDERS_MAX) builders.clear();
  builders.set(key, built);
  return built;
}
