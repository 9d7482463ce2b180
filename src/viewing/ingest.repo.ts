/**
 * The ingestion's SQL: two statements per batch of requests, whatever its size (plus the outbox and the
 * link counters when views start or complete). Lists travel as one JSON parameter each (json_to_recordset),
 * which keeps statements far below PostgreSQL's limit of 65,535 parameters and runs the same on pg and
 * PGlite. Under load a batch's time is mostly round trips, and every request of the batch waits for it.
 */
import { snakeCase } from '../core/snake-case';
import { type SQL, sql } from 'drizzle-orm';
import { executeNamed } from '../db/prepared';
import type { Executor } from '../db/client';
import { REGISTERS } from '../core/hll';
import { demoDailyViewers } from './viewing.tables';
import type {
  ChapterDelta,
  ChapterStepDelta,
  DailyDelta,
  ElementDelta,
  FormDelta,
  PathDelta,
  SegmentDelta,
  StepDailyDelta,
  ViewState,
} from './view-progress';

/**
 * Rows as the JSON array json_to_recordset reads: keys in snake_case (the column names), dates as ISO text
 * (JSON.stringify's own form). Fields the statement does not name are ignored by it.
 */
const recordset = (rows: object[]) =>
  JSON.stringify(rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [columnOf(key), value]))));
/** The column name of a field: converted once per name, not once per row (3.7 % of the ingestion's CPU on PGlite). */
const COLUMNS = new Map<string, string>();
function columnOf(key: string) {
  let column = COLUMNS.get(key);
  if (column === undefined) {
    column = snakeCase(key);
    COLUMNS.set(key, column);
  }
  return column;
}
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

export interface ViewCandidate {
  id: string;
  workspaceId: string;
  demoId: string;
  shareId: string;
  version: number | null;
  sessionId: string;
  viewerEmail: string | null;
  viewerName: string | null;
  /** Null: opened before consent (docs/consent.md). */
  anonymousId: string | null;
  referrer: string | null;
  userAgent: string | null;
  /** The viewer session was opened by a signed-in member. */
  internal: boolean;
  /** The A/B test arm served; null: none. */
  armId: string | null;
}

export interface OpenView extends ViewState {
  sessionId: string;
  workspaceId: string;
  viewerEmail: string | null;
  viewerName: string | null;
  /** Created by this statement: the view's first events. */
  created: boolean;
}

/** The columns a batch reads of a view it holds, and whether this statement created it. */
const VIEW_COLUMNS = sql.raw(`views.id, views.session_id, views.workspace_id, views.demo_id, views.version, views.started_at,
  views.steps_viewed, views.current_step, views.completed, views.completed_at, views.duration_seconds, views.viewer_email,
  views.viewer_name, views.share_id, views.internal, views.company, views.chapter_id, views.path_marks`);

/**
 * The first half of a batch, in one statement: stores the event ids (a retried one is skipped), then, for
 * every session that has a new event, opens its view if it has none, or locks the one it has (found through
 * viewer_sessions.view_id, which names its partition). Answers the `session|event` keys that were new, and
 * the views.
 *
 * Views are partitioned by month of started_at, so no unique key on views.session_id can say "one view per
 * session": the session row does. A session without a view takes the candidate's id in an update that
 * waits for any batch holding that row and re-checks `view_id is null` on its committed version, so two
 * batches never both open a view for one session. The loser then knows the view exists but cannot see it
 * in this statement's snapshot: `lockViews` reads it in a second statement (only in that race).
 */
export async function claimAndOpenViews(
  db: Executor,
  ids: Array<{ sessionId: string; eventId: string }>,
  candidates: ViewCandidate[],
  now: Date,
): Promise<{ fresh: Set<string>; views: OpenView[] }> {
  if (ids.length === 0) return { fresh: new Set(), views: [] };
  const idRows = recordset(ids);
  const viewRows = recordset(candidates);
  // A named prepared statement on PostgreSQL: planning it took longer than running it (docs/benchmarks.md, issue 33).
  const result = await executeNamed(db, 'ingest_claim', sql`
    with
    claimed as (
      insert into ingested_events (session_id, event_id, at)
      select e.session_id, e.event_id, ${now}::timestamptz
      from json_to_recordset(${idRows}::json) as e(session_id text, event_id uuid)
      order by e.session_id, e.event_id
      on conflict do nothing
      returning session_id, event_id
    ),
    candidates as (
      select * from json_to_recordset(${viewRows}::json) as v(id text, workspace_id text, demo_id text, share_id text,
        version int, session_id text, viewer_email text, viewer_name text, anonymous_id text, referrer text,
        user_agent text, internal boolean, arm_id text)
      where v.session_id in (select session_id from claimed)
    ),
    named as (
      update viewer_sessions as s set view_id = c.id, view_started_at = ${now}::timestamptz
      from candidates c
      where s.id = c.session_id and s.view_id is null
      returning s.id as session_id
    ),
    opened as (
      insert into views (id, workspace_id, demo_id, share_id, version, session_id, viewer_email, viewer_name,
        anonymous_id, steps_viewed, current_step, started_at, last_activity_at, referrer, user_agent, internal, company, arm_id)
      select v.id, v.workspace_id, v.demo_id, v.share_id, v.version, v.session_id, v.viewer_email, v.viewer_name,
        v.anonymous_id, '{1}', 1, ${now}::timestamptz, ${now}::timestamptz, v.referrer, v.user_agent,
        -- A member's own session, or a member's address (invited ones too): the workspace's own traffic.
        v.internal or exists (
          select 1 from members m where m.workspace_id = v.workspace_id and m.email = lower(v.viewer_email)
        ),
        case when v.viewer_email like '%@%' then lower(split_part(v.viewer_email, '@', 2)) end,
        v.arm_id
      from candidates v
      where v.session_id in (select session_id from named)
      order by v.session_id
      returning ${VIEW_COLUMNS}, true as created
    ),
    held as (
      select ${VIEW_COLUMNS}, false as created
      from viewer_sessions s join views on views.id = s.view_id and views.started_at = s.view_started_at
      where s.id in (select session_id from candidates)
      order by s.id
      for update of views
    )
    select session_id, event_id::text as event_id, null::json as view from claimed
    union all
    select session_id, null, row_to_json(opened) from opened
    union all
    select session_id, null, row_to_json(held) from held`);
  const fresh = new Set<string>();
  const opened: OpenView[] = [];
  for (const row of rowsOf(result)) {
    if (row.event_id !== null) fresh.add(`${row.session_id}|${row.event_id}`);
    else opened.push(openView(row.view));
  }
  const freshSessions = new Set([...fresh].map((key) => key.slice(0, key.indexOf('|'))));
  const missing = [...freshSessions].filter((id) => !opened.some((v) => v.sessionId === id));
  if (missing.length > 0) opened.push(...(await lockViews(db, missing)));
  return { fresh, views: opened };
}

/**
 * The views of sessions whose view another batch opened after this transaction's snapshot was taken: a new
 * statement sees it. A session still without one had its view deleted meanwhile (an erasure): the batch
 * fails as a serialisation failure, which the ingestion retries.
 */
async function lockViews(db: Executor, sessionIds: string[]): Promise<OpenView[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select row_to_json(held) as view from (
        select ${VIEW_COLUMNS}, false as created
        from viewer_sessions s join views on views.id = s.view_id and views.started_at = s.view_started_at
        where s.id in (select json_array_elements_text(${JSON.stringify(sessionIds)}::json))
        order by s.id
        for update of views) as held`),
  );
  if (rows.length < sessionIds.length) {
    throw Object.assign(new Error('a viewer session lost its view while its events were being stored'), { code: '40001' });
  }
  return rows.map((row) => openView(row.view));
}

function openView(json: unknown): OpenView {
  const v = (typeof json === 'string' ? JSON.parse(json) : json) as Record<string, unknown>;
  return {
    id: v.id as string,
    sessionId: v.session_id as string,
    workspaceId: v.workspace_id as string,
    demoId: v.demo_id as string,
    version: (v.version as number | null) ?? 0,
    internal: v.internal as boolean,
    shareId: (v.share_id as string | null) ?? '',
    company: (v.company as string | null) ?? '',
    startedAt: new Date(v.started_at as string),
    stepsViewed: v.steps_viewed as number[],
    currentStep: v.current_step as number,
    completed: v.completed as boolean,
    completedAt: v.completed_at ? new Date(v.completed_at as string) : null,
    durationSeconds: v.duration_seconds as number,
    viewerEmail: v.viewer_email as string | null,
    viewerName: v.viewer_name as string | null,
    chapterId: (v.chapter_id as string | null) ?? null,
    pathMarks: (v.path_marks as string[] | null) ?? [],
    created: v.created as boolean,
  };
}

export interface ViewUpdate extends ViewState {
  lastActivityAt: Date;
  viewerEmail: string | null;
  viewerName: string | null;
}

export interface Progress {
  /** `viewStartedAt`: the view's partition key, carried by its step rows. */
  stepRows: Array<{ viewId: string; viewStartedAt: Date; stepNumber: number; seconds: number; firstReachedAt: Date }>;
  views: ViewUpdate[];
  daily: DailyDelta[];
  steps: StepDailyDelta[];
  segments: SegmentDelta[];
  chapters: ChapterDelta[];
  chapterSteps: ChapterStepDelta[];
  paths: PathDelta[];
  elements: ElementDelta[];
  forms: FormDelta[];
}

/** One data-modifying CTE of writeProgress: its rows of the batch, and its statement over them (a JSON recordset). */
interface ProgressPart {
  name: string;
  rows: (p: Progress) => object[];
  sql: (rows: SQL) => SQL;
}

/** The CTEs of writeProgress, in the order they take their locks. */
const PROGRESS_PARTS: ProgressPart[] = [
  {
    name: 'step_rows',
    rows: (p) => p.stepRows,
    sql: (rows) => sql`
      insert into view_steps (view_id, view_started_at, step_number, seconds, first_reached_at)
      select x.view_id, x.view_started_at, x.step_number, x.seconds, x.first_reached_at
      from json_to_recordset(${rows}::json) as x(view_id text, view_started_at timestamptz, step_number integer, seconds double precision, first_reached_at timestamptz)
      on conflict (view_id, view_started_at, step_number) do update set seconds = view_steps.seconds + excluded.seconds
      returning 1`,
  },
  {
    name: 'view_rows',
    rows: (p) => p.views,
    sql: (rows) => sql`
      update views as v set
        steps_viewed = u.steps_viewed, current_step = u.current_step, completed = u.completed,
        completed_at = u.completed_at, duration_seconds = u.duration_seconds, last_activity_at = u.last_activity_at,
        viewer_email = u.viewer_email, viewer_name = u.viewer_name, chapter_id = u.chapter_id, path_marks = u.path_marks
      from json_to_recordset(${rows}::json) as u(
        id text, started_at timestamptz, steps_viewed integer[], current_step integer, completed boolean, completed_at timestamptz,
        duration_seconds double precision, last_activity_at timestamptz, viewer_email text, viewer_name text,
        chapter_id text, path_marks text[])
      where v.id = u.id and v.started_at = u.started_at
      returning 1`,
  },
  {
    name: 'daily_rows',
    rows: (p) => p.daily,
    sql: (rows) => sql`
      insert into demo_daily_stats (demo_id, day, version, internal, views, completions, duration_seconds)
      select x.demo_id, x.day, x.version, x.internal, x.views, x.completions, x.duration_seconds
      from json_to_recordset(${rows}::json) as x(demo_id text, day date, version integer, internal boolean, views integer, completions integer, duration_seconds double precision)
      order by x.demo_id, x.day, x.version, x.internal
      on conflict (demo_id, day, version, internal) do update set
        views = demo_daily_stats.views + excluded.views,
        completions = demo_daily_stats.completions + excluded.completions,
        duration_seconds = demo_daily_stats.duration_seconds + excluded.duration_seconds
      returning 1`,
  },
  {
    name: 'step_daily_rows',
    rows: (p) => p.steps,
    sql: (rows) => sql`
      insert into demo_step_daily_stats (demo_id, day, version, internal, step_number, views, seconds, ended_here)
      select x.demo_id, x.day, x.version, x.internal, x.step_number, x.views, x.seconds, x.ended_here
      from json_to_recordset(${rows}::json) as x(demo_id text, day date, version integer, internal boolean, step_number integer, views integer, seconds double precision, ended_here integer)
      order by x.demo_id, x.day, x.version, x.internal, x.step_number
      on conflict (demo_id, day, version, internal, step_number) do update set
        views = demo_step_daily_stats.views + excluded.views,
        seconds = demo_step_daily_stats.seconds + excluded.seconds,
        ended_here = demo_step_daily_stats.ended_here + excluded.ended_here
      returning 1`,
  },
  {
    name: 'segment_rows',
    rows: (p) => p.segments,
    sql: (rows) => sql`
      insert into demo_daily_segments (demo_id, day, internal, share_id, company, views, completions, last_viewed_at)
      select x.demo_id, x.day, x.internal, x.share_id, x.company, x.views, x.completions, x.last_viewed_at
      from json_to_recordset(${rows}::json) as x(demo_id text, day date, internal boolean, share_id text, company text, views integer, completions integer, last_viewed_at timestamptz)
      order by x.demo_id, x.day, x.internal, x.share_id, x.company
      on conflict (demo_id, day, internal, share_id, company) do update set
        views = demo_daily_segments.views + excluded.views,
        completions = demo_daily_segments.completions + excluded.completions,
        last_viewed_at = greatest(demo_daily_segments.last_viewed_at, excluded.last_viewed_at)
      returning 1`,
  },
  {
    name: 'chapter_rows',
    rows: (p) => p.chapters,
    sql: (rows) => sql`
      insert into demo_chapter_daily_stats (demo_id, day, version, internal, chapter_id, choices, views, completions)
      select x.demo_id, x.day, x.version, x.internal, x.chapter_id, x.choices, x.views, x.completions
      from json_to_recordset(${rows}::json) as x(demo_id text, day date, version integer, internal boolean, chapter_id text, choices integer, views integer, completions integer)
      order by x.demo_id, x.day, x.version, x.internal, x.chapter_id
      on conflict (demo_id, day, version, internal, chapter_id) do update set
        choices = demo_chapter_daily_stats.choices + excluded.choices,
        views = demo_chapter_daily_stats.views + excluded.views,
        completions = demo_chapter_daily_stats.completions + excluded.completions
      returning 1`,
  },
  {
    name: 'chapter_step_rows',
    rows: (p) => p.chapterSteps,
    sql: (rows) => sql`
      insert into demo_chapter_step_daily_stats (demo_id, day, version, internal, chapter_id, step_number, views)
      select x.demo_id, x.day, x.version, x.internal, x.chapter_id, x.step_number, x.views
      from json_to_recordset(${rows}::json) as x(demo_id text, day date, version integer, internal boolean, chapter_id text, step_number integer, views integer)
      order by x.demo_id, x.day, x.version, x.internal, x.chapter_id, x.step_number
      on conflict (demo_id, day, version, internal, chapter_id, step_number) do update set
        views = demo_chapter_step_daily_stats.views + excluded.views
      returning 1`,
  },
  {
    name: 'path_rows',
    rows: (p) => p.paths,
    sql: (rows) => sql`
      insert into demo_path_daily_stats (demo_id, day, version, internal, path, views)
      select x.demo_id, x.day, x.version, x.internal, x.path, x.views
      from json_to_recordset(${rows}::json) as x(demo_id text, day date, version integer, internal boolean, path text, views integer)
      order by x.demo_id, x.day, x.version, x.internal, x.path
      on conflict (demo_id, day, version, internal, path) do update set
        views = demo_path_daily_stats.views + excluded.views
      returning 1`,
  },
  {
    name: 'element_rows',
    rows: (p) => p.elements,
    sql: (rows) => sql`
      insert into demo_element_daily_stats (demo_id, day, version, internal, step_number, element_id, action_type,
        action_clicks, action_views, cta_clicks, cta_views)
      select x.demo_id, x.day, x.version, x.internal, x.step_number, x.element_id, x.action_type,
        x.action_clicks, x.action_views, x.cta_clicks, x.cta_views
      from json_to_recordset(${rows}::json) as x(demo_id text, day date, version integer, internal boolean, step_number integer,
        element_id text, action_type text, action_clicks integer, action_views integer, cta_clicks integer, cta_views integer)
      order by x.demo_id, x.day, x.version, x.internal, x.step_number, x.element_id
      on conflict (demo_id, day, version, internal, step_number, element_id) do update set
        action_type = coalesce(excluded.action_type, demo_element_daily_stats.action_type),
        action_clicks = demo_element_daily_stats.action_clicks + excluded.action_clicks,
        action_views = demo_element_daily_stats.action_views + excluded.action_views,
        cta_clicks = demo_element_daily_stats.cta_clicks + excluded.cta_clicks,
        cta_views = demo_element_daily_stats.cta_views + excluded.cta_views
      returning 1`,
  },
  {
    name: 'form_rows',
    rows: (p) => p.forms,
    sql: (rows) => sql`
      insert into demo_form_daily_stats (demo_id, day, version, internal, step_number, shown, started, submitted)
      select x.demo_id, x.day, x.version, x.internal, x.step_number, x.shown, x.started, x.submitted
      from json_to_recordset(${rows}::json) as x(demo_id text, day date, version integer, internal boolean, step_number integer, shown integer, started integer, submitted integer)
      order by x.demo_id, x.day, x.version, x.internal, x.step_number
      on conflict (demo_id, day, version, internal, step_number) do update set
        shown = demo_form_daily_stats.shown + excluded.shown,
        started = demo_form_daily_stats.started + excluded.started,
        submitted = demo_form_daily_stats.submitted + excluded.submitted
      returning 1`,
  },
];

/**
 * Writes a batch's progress in one statement (data-modifying CTEs): step seconds, the views, and the
 * rollups. One round trip instead of ten: under load a batch's time is mostly round trips, and every
 * request of the batch waits for it. Only the parts that have rows are in the statement (a batch of page
 * views has no chapter, path, element or form rows): parsing and planning a CTE costs about as much as
 * running it, more on PGlite, whether it has rows or not. On PostgreSQL each variant is a named prepared
 * statement, parsed and planned once per connection. The views are already locked by claimAndOpenViews;
 * the rollup rows are inserted in key order, so concurrent batches take their locks in one order and never
 * deadlock.
 */
export async function writeProgress(db: Executor, p: Progress) {
  const parts = PROGRESS_PARTS.filter((part) => part.rows(p).length > 0);
  if (parts.length === 0) return;
  const ctes = sql.join(
    parts.map((part) => sql`${sql.raw(part.name)} as (${part.sql(sql`${recordset(part.rows(p))}`)})`),
    sql`,\n`,
  );
  const counts = sql.join(
    parts.map((part) => sql.raw(`(select count(*) from ${part.name}) as ${part.name}`)),
    sql`, `,
  );
  const variant = PROGRESS_PARTS.reduce((mask, part, i) => (parts.includes(part) ? mask | (1 << i) : mask), 0);
  await executeNamed(db, `ingest_progress_${variant}`, sql`with ${ctes} select ${counts}`);
}

export interface DailyViewer {
  workspaceId: string;
  demoId: string;
  day: string;
  version: number;
  internal: boolean;
  shareId: string;
  viewerKey: string;
}

/**
 * Adds the viewers of views that just started to their day's set and to its sketches, the demo's and the
 * workspace's. Each sketch table takes two statements: the first creates a day's sketch or, when it exists,
 * locks it (a no-op update, in key order, so concurrent batches never wait on each other in a cycle); the
 * second adds the keys to rows this transaction now holds, and its fresh snapshot sees a row another batch
 * created meanwhile.
 */
export async function addDailyViewers(db: Executor, rows: DailyViewer[]) {
  if (rows.length === 0) return;
  // Sorted by key: concurrent batches insert in one order and never wait on each other in a cycle.
  const sorted = [...rows].sort((a, b) =>
    compareKeys(
      [a.demoId, a.day, String(a.version).padStart(10, '0'), a.internal ? '1' : '0', a.shareId, a.viewerKey],
      [b.demoId, b.day, String(b.version).padStart(10, '0'), b.internal ? '1' : '0', b.shareId, b.viewerKey],
    ),
  );
  await db
    .insert(demoDailyViewers)
    .values(sorted.map(({ workspaceId: _, ...row }) => row))
    .onConflictDoNothing();
  await addToSketches(db, 'demo_daily_sketches', 'demo_id', sorted.map((r) => ({ owner: r.demoId, day: r.day, internal: r.internal, key: r.viewerKey })));
  await addToSketches(db, 'workspace_daily_sketches', 'workspace_id', sorted.map((r) => ({ owner: r.workspaceId, day: r.day, internal: r.internal, key: r.viewerKey })));
}

async function addToSketches(
  db: Executor,
  table: 'demo_daily_sketches' | 'workspace_daily_sketches',
  ownerColumn: 'demo_id' | 'workspace_id',
  rows: Array<{ owner: string; day: string; internal: boolean; key: string }>,
) {
  const sketches = new Map<string, { owner: string; day: string; internal: boolean; keys: string[] }>();
  for (const r of rows) {
    const id = JSON.stringify([r.owner, r.day, r.internal]);
    const entry = sketches.get(id) ?? { owner: r.owner, day: r.day, internal: r.internal, keys: [] };
    entry.keys.push(r.key);
    sketches.set(id, entry);
  }
  const json = JSON.stringify([...sketches.values()]);
  const t = sql.identifier(table);
  const owner = sql.identifier(ownerColumn);
  await db.execute(sql`
    insert into ${t} (${owner}, day, internal, sketch)
    select x.owner, x.day, x.internal, decode(repeat('00', ${REGISTERS}), 'hex')
    from json_to_recordset(${json}::json) as x(owner text, day date, internal boolean)
    order by 1, 2, 3
    on conflict (${owner}, day, internal) do update set sketch = ${t}.sketch`);
  await db.execute(sql`
    update ${t} as s set sketch = demoshare_hll_add(s.sketch, array(select json_array_elements_text(x.keys)))
    from (select * from json_to_recordset(${json}::json) as x(owner text, day date, internal boolean, keys json) order by 1, 2, 3) as x
    where s.${owner} = x.owner and s.day = x.day and s.internal = x.internal`);
}

function compareKeys(a: string[], b: string[]) {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return 0;
}
