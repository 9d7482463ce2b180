import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  uniqueIndex,
  text,
} from 'drizzle-orm/pg-core';
import { members } from '../accounts/accounts.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { at, bytea, createdAt, id, updatedAt } from '../db/columns';
import { ACTION_TYPES, type PagePatch, STEP_KINDS, type StepContent } from './story.schemas';


export const DEMO_STATUSES = ['generating', 'draft', 'published', 'archived'] as const;
export type DemoStatus = (typeof DEMO_STATUSES)[number];

/** `none`: never generated. `queued` → `running` → `succeeded` | `failed`. */
export const GENERATION_STATUSES = ['none', 'queued', 'running', 'succeeded', 'failed'] as const;

/**
 * The kinds of generation failure, in `generation.error_code` (docs/generation.md#when-generation-fails).
 * A client acts on the code; the sentence in `generation.error` is for people.
 */
export const GENERATION_ERROR_CODES = [
  'blocked_address',
  'dns_failure',
  'unreachable',
  'timeout',
  'tls_error',
  'http_error',
  'not_a_page',
  'invalid_address',
  'nothing_to_capture',
  'interrupted',
  'failed',
] as const;

export type GenerationErrorCode = (typeof GENERATION_ERROR_CODES)[number];

export const demos = pgTable(
  'demos',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    sourceUrl: text('source_url'),
    type: text('type').notNull().default('interactive'),
    status: text('status', { enum: DEMO_STATUSES }).notNull(),
    configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull().default({}),
    generateWithAi: boolean('generate_with_ai').notNull().default(false),
    generationStatus: text('generation_status', { enum: GENERATION_STATUSES }).notNull().default('none'),
    generationError: text('generation_error'),
    /** What kind of failure `generationError` describes (GENERATION_ERROR_CODES), so clients can act on it. */
    generationErrorCode: text('generation_error_code', { enum: GENERATION_ERROR_CODES }),
    generationStartedAt: at('generation_started_at'),
    generationFinishedAt: at('generation_finished_at'),
    generationCaptureMode: text('generation_capture_mode'),
    generationWriter: text('generation_writer'),
    /** pg-boss job of the current generation, so a sweep can tell a lost job from a running one. */
    generationJobId: text('generation_job_id'),
    /**
     * Token of the attempt allowed to write results. A retried job takes a new one, so a worker that was
     * presumed dead and wakes up later cannot overwrite the newer attempt's steps.
     */
    generationAttempt: text('generation_attempt'),
    /**
     * The lease of the running attempt: its worker renews it every few seconds. One that lapsed means the
     * worker died, and a sweep hands the generation to another (GENERATION_LEASE, docs/demos.md).
     */
    generationHeartbeatAt: at('generation_heartbeat_at'),
    /** The running generation keeps the steps a person made or changed (regenerate's keep_edited_steps). */
    generationKeepEdited: boolean('generation_keep_edited').notNull().default(false),
    publishedAt: at('published_at'),
    createdById: text('created_by_id').references(() => members.id, { onDelete: 'set null' }),
    /** The first step's image, kept in step with every step change. */
    thumbnailAssetId: text('thumbnail_asset_id').references((): AnyPgColumn => assets.id, { onDelete: 'set null' }),
    /**
     * Bumped by every write to the demo, its steps or its hotspots (the repository's update functions do it).
     * Caches do not read it: they drop a demo's entries on its announced change (demo-reads.service.ts).
     */
    revision: integer('revision').notNull().default(1),
    /** The stable key a demo file names it by (`demoshare demos push`): unique in its workspace, or none (docs/demo-format.md). */
    key: text('key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The list's order (newest first, id breaking ties; read backwards): a page, by offset or by keyset, reads
    // its rows in index order with no sort of the whole workspace (demos.repo.ts listDemos).
    index('demos_workspace_created_id_idx').on(t.workspaceId, t.createdAt, t.id),
    uniqueIndex('demos_workspace_key_uq').on(t.workspaceId, t.key).where(sql`key is not null`),
    index('demos_generating_idx').on(t.status).where(sql`status = 'generating'`),
    check('demos_status_ck', sql`${t.status} in ('generating', 'draft', 'published', 'archived')`),
  ],
);

/**
 * Captured images and HTML snapshots. Always owned by one demo (a viewer path can then check the demo and
 * serve the asset without a second lookup) and addressed by an unguessable id.
 */
export const assets = pgTable(
  'assets',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    demoId: text('demo_id')
      .notNull()
      .references((): AnyPgColumn => demos.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    /** The bytes themselves when ASSET_STORE=database (and for every asset written before another store was chosen). */
    bytes: bytea('bytes'),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    /**
     * Where the bytes are in the asset store (filesystem or S3, src/core/blob-store): its content-addressed key,
     * or null when they are in `bytes`. Exactly one of the two is set.
     */
    blobKey: text('blob_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('assets_demo_idx').on(t.demoId),
    // Garbage collection asks whether any asset still names a blob (blob-gc): one index probe per blob.
    index('assets_blob_key_idx').on(t.blobKey).where(sql`blob_key is not null`),
    // A CDN asks the origin for an image by its digest (GET /v1/public-assets/sha256/:hex), wherever its bytes are
    // now: an address a payload named while they were in a blob store stays good after a move to the database.
    index('assets_sha256_idx').on(t.sha256),
    check('assets_bytes_or_blob_ck', sql`(${t.bytes} is null) <> (${t.blobKey} is null)`),
  ],
);

export const steps = pgTable(
  'steps',
  {
    id: id(),
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    /** 1-based order within the demo: the step `number` on the wire. */
    position: integer('position').notNull(),
    title: text('title').notNull().default(''),
    description: text('description').notNull().default(''),
    pageUrl: text('page_url'),
    imageAssetId: text('image_asset_id').references(() => assets.id, { onDelete: 'set null' }),
    width: integer('width'),
    height: integer('height'),
    htmlAssetId: text('html_asset_id').references(() => assets.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: STEP_KINDS }).notNull().default('page'),
    chapterId: text('chapter_id').references((): AnyPgColumn => chapters.id, { onDelete: 'set null' }),
    /** Buttons and form (story.schemas.ts), validated on the way in. */
    content: jsonb('content').$type<StepContent>().notNull().default({ buttons: [] }),
    /** Edits to the captured page, applied when the snapshot is served. */
    patches: jsonb('patches').$type<PagePatch[]>().notNull().default([]),
    /** Sanitised rich text (b, i, a, lists); `description` holds its plain text for clients that read only that. */
    descriptionHtml: text('description_html'),
    /**
     * When a person last made or changed this step (text, image, hotspots); null for a generated step
     * nobody touched. Generating again with keep_edited_steps keeps the steps that have it.
     */
    editedAt: at('edited_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('steps_demo_position_idx').on(t.demoId, t.position)],
);

/** Groups of steps a chapter menu offers; a chapter starts at its first step by position. */
export const chapters = pgTable(
  'chapters',
  {
    id: id(),
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('chapters_demo_position_idx').on(t.demoId, t.position)],
);

/** Every action a hotspot or button can take (story.schemas.ts); the contract's were next, goto and url. */
export const HOTSPOT_ACTIONS = ACTION_TYPES;
export type HotspotAction = (typeof HOTSPOT_ACTIONS)[number];

export const hotspots = pgTable(
  'hotspots',
  {
    id: id(),
    stepId: text('step_id')
      .notNull()
      .references(() => steps.id, { onDelete: 'cascade' }),
    /** Denormalised from the step so that one indexed query loads every hotspot of a demo. */
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    /** Fractions (0..1) of the step image, so hotspots survive any display size. */
    x: doublePrecision('x').notNull(),
    y: doublePrecision('y').notNull(),
    width: doublePrecision('width').notNull(),
    height: doublePrecision('height').notNull(),
    selector: text('selector'),
    label: text('label').notNull().default(''),
    tooltip: text('tooltip').notNull().default(''),
    /** Sanitised rich text; `tooltip` holds its plain text. */
    tooltipHtml: text('tooltip_html'),
    actionType: text('action_type', { enum: HOTSPOT_ACTIONS }).notNull().default('next'),
    /** `goto`/`submit`: the target step's id (its number changes when steps move); `chapter`: its id; `url`/`demo`: the address. */
    actionTarget: text('action_target'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('hotspots_step_idx').on(t.stepId),
    index('hotspots_demo_idx').on(t.demoId),
    check(
      'hotspots_box_ck',
      sql`${t.x} >= 0 and ${t.y} >= 0 and ${t.width} > 0 and ${t.height} > 0 and ${t.x} + ${t.width} <= 1.000001 and ${t.y} + ${t.height} <= 1.000001`,
    ),
  ],
);

/**
 * What viewers see of a demo, frozen at each publish (`snapshot`: title, configuration, steps with their
 * hotspots and asset ids). The viewer serves the newest; the live rows above are the editor's draft.
 * `asset_ids` lists the assets the snapshot names, so that deleting a step of the draft keeps them.
 */
export const demoVersions = pgTable(
  'demo_versions',
  {
    id: id(),
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    stepCount: integer('step_count').notNull(),
    assetIds: text('asset_ids').array().notNull().default([]),
    /** The user who published; null for versions made by the migration from demos published before. */
    publishedById: text('published_by_id'),
    publishedAt: at('published_at').notNull(),
  },
  (t) => [uniqueIndex('demo_versions_demo_number_uq').on(t.demoId, t.number)],
);
