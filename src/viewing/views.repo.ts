import { and, desc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { PageWindow } from '../core/pagination';
import type { Executor } from '../db/client';
import { afterRow } from '../db/keyset';
import { demoDailyStats, views } from './viewing.tables';

export interface ViewFilter {
  from?: Date;
  to?: Date;
  viewerEmail?: string;
  version?: number;
  includeInternal?: boolean;
}

/** A listed view's time on each step it reached, in step order: all the list shows of its view_steps. */
export interface StepTime {
  stepNumber: number;
  seconds: number;
}

// Spelled out: Drizzle leaves column names unqualified inside a select list, which a subquery misreads.
// Subqueries rather than a join: they run for the page's rows only, after the sort and the limit.
const linkName = sql<string | null>`(select l."name" from "shares" l where l."id" = "views"."share_id")`;
const linkVariables = sql<Record<string, string> | null>`(select l."variables" from "shares" l where l."id" = "views"."share_id")`;
/**
 * The demo is the workspace's: a condition on no column of views, which the planner checks once, so the
 * rows come from views_demo_started_idx in the list's order (a workspace_id condition made it combine
 * two indexes and sort every view of the demo).
 */
const ownDemo = (workspaceId: string, demoId: string) =>
  sql`exists (select 1 from "demos" d where d."id" = ${demoId} and d."workspace_id" = ${workspaceId})`;
/** The view's start names the one partition of view_steps its rows are in: one index probe, not one per month. */
const stepTimes = sql<[number, number][]>`coalesce((select json_agg(json_build_array(s."step_number", s."seconds") order by s."step_number") from "view_steps" s where s."view_id" = "views"."id" and s."view_started_at" = "views"."started_at"), '[]'::json)`;

/**
 * The columns a listed view shows (toView): not the session, the chapter, the path marks or the arm, which
 * only the journey and the analytics read. Each column a row carries costs the driver a field to decode.
 */
const LISTED = {
  id: views.id,
  demoId: views.demoId,
  shareId: views.shareId,
  version: views.version,
  viewerEmail: views.viewerEmail,
  viewerName: views.viewerName,
  anonymousId: views.anonymousId,
  stepsViewed: views.stepsViewed,
  completed: views.completed,
  completedAt: views.completedAt,
  durationSeconds: views.durationSeconds,
  startedAt: views.startedAt,
  lastActivityAt: views.lastActivityAt,
  referrer: views.referrer,
  userAgent: views.userAgent,
  internal: views.internal,
  company: views.company,
};

/**
 * One page of the demo's views, newest first, in one statement: each with its link's name and variables (a
 * personalised link says which account watched) and its step times (a correlated subquery on view_steps'
 * primary key, in the view's own partition), computed for the page's rows only, the total of the filter
 * riding along as a subquery computed once (countOf). `window.after` pages by keyset on (started_at, id),
 * through views_demo_started_idx, at the same cost however deep; a page by number reads the rows its offset
 * skips from that index alone.
 * Only the workspace's demo has rows: an empty page says nothing of the demo, and the caller looks it up
 * then (and counts, past the end).
 */
export async function listViews(db: Executor, workspaceId: string, demoId: string, filter: ViewFilter, window: PageWindow) {
  const where = viewsWhere(demoId, filter);
  // The page's rows first (sort, offset, limit), then their links and step times: PostgreSQL computes a
  // select list's subqueries for every row it reads, so on the outer query they run for the page alone,
  // not for the rows an offset skips. Named "views" like the table, so the subqueries read the page.
  const page = db
    .select(LISTED)
    .from(views)
    .where(and(where, ownDemo(workspaceId, demoId), window.after ? afterRow(views, views.startedAt, views.id, window.after, 'desc') : undefined))
    .orderBy(desc(views.startedAt), desc(views.id))
    .limit(window.limit)
    .offset(window.offset)
    .as('views');
  const found = await db
    .select({
      // The page's own columns (LISTED, as the subquery names them).
      view: page._.selectedFields,
      linkName,
      linkVariables,
      steps: stepTimes,
      total: countOf(demoId, filter, where),
    })
    .from(page)
    .orderBy(desc(page.startedAt), desc(page.id));
  const rows = found.map(({ view, linkName, linkVariables, steps }) => ({
    ...view,
    linkName,
    linkVariables,
    stepTimes: steps.map(([stepNumber, seconds]): StepTime => ({ stepNumber, seconds })),
  }));
  return { rows, total: found[0]?.total ?? 0 };
}

function viewsWhere(demoId: string, filter: ViewFilter): SQL | undefined {
  const conditions: SQL[] = [eq(views.demoId, demoId)];
  if (filter.from) conditions.push(gte(views.startedAt, filter.from));
  if (filter.to) conditions.push(lte(views.startedAt, filter.to));
  if (filter.viewerEmail) conditions.push(eq(views.viewerEmail, filter.viewerEmail.toLowerCase()));
  if (filter.version !== undefined) conditions.push(eq(views.version, filter.version));
  if (!filter.includeInternal) conditions.push(eq(views.internal, false));
  return and(...conditions);
}

/**
 * For a page that came back empty: whether the demo is the workspace's, and how many views match `filter`
 * (a page past the end still says the total), in one statement.
 */
export async function emptyPage(db: Executor, workspaceId: string, demoId: string, filter: ViewFilter) {
  const result = await db.execute(sql`select ${ownDemo(workspaceId, demoId)} as own, ${countOf(demoId, filter, viewsWhere(demoId, filter))} as n`);
  const row = (result as unknown as { rows: { own: boolean; n: number }[] }).rows[0];
  return { own: row?.own === true, total: Number(row?.n ?? 0) };
}

const DAY_MS = 86_400_000;
const isDayStart = (at: Date) => at.getTime() % DAY_MS === 0;
const isDayEnd = (at: Date) => (at.getTime() + 1) % DAY_MS === 0;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * How many views match `filter`, as a scalar subquery. Counting the rows is linear in the demo's views (32 ms
 * at 50,000 on PGlite, bench/embedded-maintenance.ts); when the bounds are whole UTC days (a date, not a
 * timestamp, in the query) and no viewer is named, the daily roll-up holds the same number in one row per
 * day, version and audience, kept in the transaction that adds each view (ingest.repo.ts) and rebuilt or
 * deleted with them (viewer-privacy). Otherwise the rows are counted.
 */
function countOf(demoId: string, filter: ViewFilter, where: SQL | undefined) {
  const wholeDays = (!filter.from || isDayStart(filter.from)) && (!filter.to || isDayEnd(filter.to));
  if (filter.viewerEmail || !wholeDays) {
    return sql<number>`(select count(*)::int from ${views} where ${where})`.mapWith(Number);
  }
  const conditions: SQL[] = [eq(demoDailyStats.demoId, demoId)];
  if (filter.from) conditions.push(gte(demoDailyStats.day, dayOf(filter.from)));
  if (filter.to) conditions.push(lte(demoDailyStats.day, dayOf(filter.to)));
  if (filter.version !== undefined) conditions.push(eq(demoDailyStats.version, filter.version));
  if (!filter.includeInternal) conditions.push(eq(demoDailyStats.internal, false));
  return sql<number>`(select coalesce(sum(${demoDailyStats.views}), 0)::int from ${demoDailyStats} where ${and(...conditions)})`.mapWith(Number);
}
