// The viewing domain's tables: viewer sessions and the access log (each belongs to its link and goes with
// it), the views, their steps and the daily roll-ups analytics reads.
import { sql } from 'drizzle-orm';
import { bigserial, boolean, date, doublePrecision, foreignKey, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from '../workspaces/workspaces.tables';
import { demos } from '../demos/demos.tables';
import { at, bytea, createdAt } from '../db/columns';
import { ACCESS_DECISIONS } from '../shares/link-viewers';
import { shares } from '../shares/shares.tables';

/**
 * A viewer's unlocked session on one link. The cookie holds a random token; only its SHA-256 is stored,
 * so a database leak does not hand out live sessions.
 */
export const viewerSessions = pgTable(
  'viewer_sessions',
  {
    id: text('id').primaryKey(),
    shareId: text('share_id')
      .notNull()
      .references(() => shares.id, { onDelete: 'cascade' }),
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    /** The share's password_version when the password was entered; null: never unlocked with a password. */
    passwordVersion: integer('password_version'),
    viewerName: text('viewer_name'),
    viewerEmail: text('viewer_email'),
    /**
     * Stable per session: counts anonymous visitors in unique_viewers. Null while the page that embeds the
     * player has not granted consent (docs/consent.md): such a view counts, not as a unique viewer.
     */
    anonymousId: text('anonymous_id'),
    /** Opened by a signed-in member of the workspace: their views are internal traffic. */
    internal: boolean('internal').notNull().default(false),
    /** The A/B test arm (experiment_arms.id) this session was given: the viewer stays on it. Null: none yet. */
    armId: text('arm_id'),
    referrer: text('referrer'),
    userAgent: text('user_agent'),
    /**
     * The session's view (views.id and views.started_at, its partition key), set by the statement that
     * creates it. Views are partitioned by month, so a unique key on views.session_id cannot exist: this
     * row is what makes "at most one view per session" hold (ingest.repo.ts). Null: no view yet.
     */
    viewId: text('view_id'),
    viewStartedAt: at('view_started_at'),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('viewer_sessions_share_idx').on(t.shareId), index('viewer_sessions_expires_idx').on(t.expiresAt)],
);

/** Every gate decision of a link, for its owners: who tried, from where, and what the answer was. */
export const shareAccessLog = pgTable(
  'share_access_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    shareId: text('share_id')
      .notNull()
      .references(() => shares.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    decision: text('decision', { enum: ACCESS_DECISIONS }).notNull(),
    at: at('at').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    viewerEmail: text('viewer_email'),
    viewerName: text('viewer_name'),
  },
  (t) => [index('share_access_log_share_idx').on(t.shareId, t.at), index('share_access_log_at_idx').on(t.at)],
);

/**
 * One viewer session on one demo. On both engines the table is partitioned by month of `started_at`
 * (migration 0045, docs/partitioning.md): the key includes it, and the partitions are made ahead by a job.
 */
export const views = pgTable(
  'views',
  {
    id: text('id').notNull(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    shareId: text('share_id').references(() => shares.id, { onDelete: 'set null' }),
    /** The viewer session this view belongs to: at most one view per session (viewer_sessions.view_id). */
    sessionId: text('session_id').references(() => viewerSessions.id, { onDelete: 'set null' }),
    viewerEmail: text('viewer_email'),
    viewerName: text('viewer_name'),
    anonymousId: text('anonymous_id'),
    /**
     * The demo version played (demo_versions.number): its step numbers are the ones in steps_viewed and
     * view_steps, whatever the draft became since. Null for views recorded before versions existed.
     */
    version: integer('version'),
    stepsViewed: integer('steps_viewed').array().notNull().default([]),
    /** The step the viewer is on: the next `seconds_on_previous` is credited to it. */
    currentStep: integer('current_step').notNull().default(1),
    completed: boolean('completed').notNull().default(false),
    completedAt: at('completed_at'),
    durationSeconds: doublePrecision('duration_seconds').notNull().default(0),
    startedAt: at('started_at').notNull(),
    lastActivityAt: at('last_activity_at').notNull(),
    referrer: text('referrer'),
    userAgent: text('user_agent'),
    /**
     * Workspace traffic: a signed-in member's session, or a member's e-mail. Decided when the view starts,
     * like the company; left out of every figure unless asked for.
     */
    internal: boolean('internal').notNull().default(false),
    /** The domain of the viewer's e-mail when the view started (lower case); null: anonymous then. */
    company: text('company'),
    /**
     * The chapter the viewer chose last (chapter_selected); null before any. The per-chapter funnels count
     * the steps a view reaches under it.
     */
    chapterId: text('chapter_id'),
    /**
     * What the path roll-ups already counted for this view, in the order it happened, so each counts a
     * view once: `c:<chapter>` chosen, `s:<chapter>:<step>` reached in a chapter, `a:<step>:<element>`
     * used, `k:<step>:<element>` CTA clicked, `f:<step>:<stage>` form stage. At most 500 (MAX_PATH_MARKS).
     */
    pathMarks: text('path_marks').array().notNull().default([]),
    /** The A/B test arm (experiment_arms.id) served when the view started; null: no experiment. */
    armId: text('arm_id'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.startedAt] }),
    // A session's view (findSessionView), and the foreign key's clean-up when a session goes.
    index('views_session_idx').on(t.sessionId),
    // The per-arm figures of an experiment (experiments.repo.ts); most views have no arm.
    index('views_arm_idx').on(t.armId).where(sql`arm_id is not null`),
    // The views list's order, (started_at, id) newest first: a page (or a keyset page) reads its own rows.
    index('views_demo_started_idx').on(t.demoId, t.startedAt, t.id),
    index('views_demo_email_idx').on(t.demoId, t.viewerEmail),
    // A viewer's journey lists their views of every demo.
    index('views_workspace_email_idx').on(t.workspaceId, t.viewerEmail),
  ],
);

/**
 * A view's time on each step. Partitioned like the views, by their view's `started_at` (carried here as
 * `view_started_at`), so a month of views and its steps are dropped together.
 */
export const viewSteps = pgTable(
  'view_steps',
  {
    viewId: text('view_id').notNull(),
    viewStartedAt: at('view_started_at').notNull(),
    stepNumber: integer('step_number').notNull(),
    seconds: doublePrecision('seconds').notNull().default(0),
    firstReachedAt: at('first_reached_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.viewId, t.viewStartedAt, t.stepNumber] }),
    foreignKey({ columns: [t.viewId, t.viewStartedAt], foreignColumns: [views.id, views.startedAt] }).onDelete('cascade'),
  ],
);

/** Client event ids already ingested, per viewer session: a retried event is not counted twice. */
export const ingestedEvents = pgTable(
  'ingested_events',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => viewerSessions.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull(),
    at: at('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.eventId] })],
);

/**
 * Per-day aggregates, kept up to date in the ingestion transaction, so analytics cost O(days × steps).
 * Everything a view does is credited to the UTC day it started.
 */
export const demoDailyStats = pgTable(
  'demo_daily_stats',
  {
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    /** The version the views played (views.version); 0 for views recorded before versions existed. */
    version: integer('version').notNull().default(0),
    /** Members' own views (views.internal), kept apart so that figures can leave them out. */
    internal: boolean('internal').notNull().default(false),
    views: integer('views').notNull().default(0),
    completions: integer('completions').notNull().default(0),
    durationSeconds: doublePrecision('duration_seconds').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.demoId, t.day, t.version, t.internal] })],
);

export const demoStepDailyStats = pgTable(
  'demo_step_daily_stats',
  {
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    /** The version whose step this is: step numbers of different versions are different steps. */
    version: integer('version').notNull().default(0),
    internal: boolean('internal').notNull().default(false),
    stepNumber: integer('step_number').notNull(),
    /** Views that reached the step. */
    views: integer('views').notNull().default(0),
    seconds: doublePrecision('seconds').notNull().default(0),
    /** Views whose furthest step is this one and that have not completed: the drop-offs so far. */
    endedHere: integer('ended_here').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.demoId, t.day, t.version, t.internal, t.stepNumber] })],
);

/**
 * Who viewed a demo on each UTC day (and version, and link): one row per viewer, added when their view
 * starts. A viewer is their e-mail address when known, else the visitor id of their session. Exact unique
 * viewers over a range are the distinct keys of its days: read from here, never from the views.
 */
export const demoDailyViewers = pgTable(
  'demo_daily_viewers',
  {
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    version: integer('version').notNull().default(0),
    internal: boolean('internal').notNull().default(false),
    /** The link the view came through; '' for none (a view recorded without one). */
    shareId: text('share_id').notNull().default(''),
    viewerKey: text('viewer_key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.demoId, t.day, t.version, t.internal, t.shareId, t.viewerKey] })],
);

/**
 * Views per day, link and company (the e-mail domain when the view started; '' for anonymous views):
 * the per-link and per-company tables read these, never the views. A link deleted since keeps its rows.
 */
export const demoDailySegments = pgTable(
  'demo_daily_segments',
  {
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    internal: boolean('internal').notNull().default(false),
    shareId: text('share_id').notNull().default(''),
    company: text('company').notNull().default(''),
    views: integer('views').notNull().default(0),
    completions: integer('completions').notNull().default(0),
    lastViewedAt: at('last_viewed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.demoId, t.day, t.internal, t.shareId, t.company] })],
);

/**
 * A HyperLogLog sketch of each day's viewers (4096 one-byte registers, see hll.ts), filled by the SQL
 * function demoshare_hll_add at ingestion. Sketches merge across days and demos, so unique viewers over
 * long busy ranges cost O(days) whatever the views.
 */
export const demoDailySketches = pgTable(
  'demo_daily_sketches',
  {
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    internal: boolean('internal').notNull().default(false),
    sketch: bytea('sketch').notNull(),
  },
  (t) => [primaryKey({ columns: [t.demoId, t.day, t.internal] })],
);

/**
 * The same sketch per workspace and day, over all its demos, kept at ingestion beside the demos' own: the
 * workspace overview then merges one sketch per day however many demos there are. A demo deleted later
 * stays in it (a sketch cannot forget a viewer): see docs/analytics.md.
 */
export const workspaceDailySketches = pgTable(
  'workspace_daily_sketches',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    internal: boolean('internal').notNull().default(false),
    sketch: bytea('sketch').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.day, t.internal] })],
);

/**
 * Chapter choices per day: `choices` counts chapter_selected events, `views` the views that chose the
 * chapter (once each), `completions` those of them that completed the demo afterwards.
 */
export const demoChapterDailyStats = pgTable(
  'demo_chapter_daily_stats',
  {
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    version: integer('version').notNull().default(0),
    internal: boolean('internal').notNull().default(false),
    chapterId: text('chapter_id').notNull(),
    choices: integer('choices').notNull().default(0),
    views: integer('views').notNull().default(0),
    completions: integer('completions').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.demoId, t.day, t.version, t.internal, t.chapterId] })],
);

/**
 * The per-chapter funnels: views that reached a step while the chapter they chose last was this one
 * (once per view, chapter and step).
 */
export const demoChapterStepDailyStats = pgTable(
  'demo_chapter_step_daily_stats',
  {
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    version: integer('version').notNull().default(0),
    internal: boolean('internal').notNull().default(false),
    chapterId: text('chapter_id').notNull(),
    stepNumber: integer('step_number').notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.demoId, t.day, t.version, t.internal, t.chapterId, t.stepNumber] })],
);

/**
 * Paths: the chapters a view chose, in order (ids joined by `>`, at most 8). A view counts under its path
 * so far: choosing another chapter moves it from its old path's row to the new one.
 */
export const demoPathDailyStats = pgTable(
  'demo_path_daily_stats',
  {
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    version: integer('version').notNull().default(0),
    internal: boolean('internal').notNull().default(false),
    path: text('path').notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.demoId, t.day, t.version, t.internal, t.path] })],
);

/**
 * Hotspots and buttons used, per step and element id (a button id is unique within its step):
 * action_taken events and the views that sent one, cta_clicked events and the views that sent one.
 */
export const demoElementDailyStats = pgTable(
  'demo_element_daily_stats',
  {
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    version: integer('version').notNull().default(0),
    internal: boolean('internal').notNull().default(false),
    stepNumber: integer('step_number').notNull(),
    elementId: text('element_id').notNull(),
    /** The action the element last reported doing (action_taken); null when only CTA clicks came. */
    actionType: text('action_type'),
    actionClicks: integer('action_clicks').notNull().default(0),
    actionViews: integer('action_views').notNull().default(0),
    ctaClicks: integer('cta_clicks').notNull().default(0),
    ctaViews: integer('cta_views').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.demoId, t.day, t.version, t.internal, t.stepNumber, t.elementId] })],
);

/** Lead forms per step: the views that were shown the form, started filling it, and sent it (once each). */
export const demoFormDailyStats = pgTable(
  'demo_form_daily_stats',
  {
    demoId: text('demo_id')
      .notNull()
      .references(() => demos.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    version: integer('version').notNull().default(0),
    internal: boolean('internal').notNull().default(false),
    stepNumber: integer('step_number').notNull(),
    shown: integer('shown').notNull().default(0),
    started: integer('started').notNull().default(0),
    submitted: integer('submitted').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.demoId, t.day, t.version, t.internal, t.stepNumber] })],
);
