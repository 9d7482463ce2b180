/**
 * Analytics' SQL, over the roll-ups ingestion keeps (viewing/viewing.tables.ts) and never over the views, but
 * for one view's journey. Every query takes the same range (whole UTC days, inclusive) and leaves internal
 * traffic out unless asked.
 */
import { and, asc, desc, eq, gte, inArray, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client';
import { demos } from '../demos/demos.tables';
import { shares } from '../shares/shares.tables';
import {
  demoChapterDailyStats,
  demoChapterStepDailyStats,
  demoElementDailyStats,
  demoFormDailyStats,
  demoPathDailyStats,
  demoDailySegments,
  demoDailySketches,
  demoDailyStats,
  demoDailyViewers,
  demoStepDailyStats,
  viewSteps,
  views,
  workspaceDailySketches,
} from '../viewing/viewing.tables';

export interface Range {
  fromDay?: string;
  toDay?: string;
  includeInternal: boolean;
  version?: number;
}

/** One demo, or every demo of a workspace. */
export type Target = { demoId: string } | { workspaceId: string };

type Granularity = 'day' | 'week' | 'month';

function where(
  t: { demoId: PgColumn; day: PgColumn; internal: PgColumn; version?: PgColumn },
  target: Target,
  range: Range,
): SQL | undefined {
  const conditions: SQL[] = [
    'demoId' in target
      ? eq(t.demoId, target.demoId)
      : inArray(t.demoId, sql`(select ${demos.id} from ${demos} where ${demos.workspaceId} = ${target.workspaceId})`),
  ];
  if (!range.includeInternal) conditions.push(eq(t.internal, false));
  if (range.version !== undefined && t.version) conditions.push(eq(t.version, range.version));
  if (range.fromDay) conditions.push(gte(t.day, range.fromDay));
  if (range.toDay) conditions.push(lte(t.day, range.toDay));
  return and(...conditions);
}

const int = (column: SQL | PgColumn) => sql<number>`coalesce(sum(${column}), 0)::int`.mapWith(Number);
const float = (column: SQL | PgColumn) => sql<number>`coalesce(sum(${column}), 0)::float8`.mapWith(Number);

/** Views, completions and seconds per day. Rows of one day (versions, internal or not) are summed. */
export async function dailyTotals(db: Executor, target: Target, range: Range) {
  return db
    .select({
      day: demoDailyStats.day,
      views: int(demoDailyStats.views),
      completions: int(demoDailyStats.completions),
      durationSeconds: float(demoDailyStats.durationSeconds),
    })
    .from(demoDailyStats)
    .where(where(demoDailyStats, target, range))
    .groupBy(demoDailyStats.day)
    .orderBy(asc(demoDailyStats.day));
}

/** The same totals per demo of a workspace, busiest first. */
export async function demoTotals(db: Executor, workspaceId: string, range: Range, limit: number) {
  const views = int(demoDailyStats.views);
  return db
    .select({
      demoId: demoDailyStats.demoId,
      title: demos.title,
      views,
      completions: int(demoDailyStats.completions),
    })
    .from(demoDailyStats)
    .innerJoin(demos, eq(demos.id, demoDailyStats.demoId))
    .where(where(demoDailyStats, { workspaceId }, range))
    .groupBy(demoDailyStats.demoId, demos.title)
    .orderBy(desc(views), asc(demoDailyStats.demoId))
    .limit(limit);
}

export async function countDemosViewed(db: Executor, workspaceId: string, range: Range) {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${demoDailyStats.demoId})::int`.mapWith(Number) })
    .from(demoDailyStats)
    .where(and(where(demoDailyStats, { workspaceId }, range), sql`${demoDailyStats.views} > 0`));
  return row?.n ?? 0;
}

export async function stepTotals(db: Executor, demoId: string, range: Range) {
  return db
    .select({
      stepNumber: demoStepDailyStats.stepNumber,
      views: int(demoStepDailyStats.views),
      seconds: float(demoStepDailyStats.seconds),
      endedHere: int(demoStepDailyStats.endedHere),
    })
    .from(demoStepDailyStats)
    .where(where(demoStepDailyStats, { demoId }, range))
    .groupBy(demoStepDailyStats.stepNumber)
    .orderBy(asc(demoStepDailyStats.stepNumber));
}

/** The versions the views of the range played, in order (0: views recorded before versions existed). */
export async function versionsPlayed(db: Executor, demoId: string, range: Range): Promise<number[]> {
  const rows = await db
    .selectDistinct({ version: demoStepDailyStats.version })
    .from(demoStepDailyStats)
    .where(where(demoStepDailyStats, { demoId }, range))
    .orderBy(asc(demoStepDailyStats.version));
  return rows.map((r) => r.version);
}

const periodOf = (day: PgColumn, granularity: Granularity) =>
  sql<string>`to_char(date_trunc(${sql.raw(`'${granularity}'`)}, ${day}::timestamp), 'YYYY-MM-DD')`;

/** Exact distinct viewers, overall and per period, from the per-day viewer sets: O(viewers of the range). */
export async function exactViewers(db: Executor, target: Target, range: Range, granularity?: Granularity) {
  const distinct = sql<number>`count(distinct ${demoDailyViewers.viewerKey})::int`.mapWith(Number);
  const filter = where(demoDailyViewers, target, range);
  const [total] = await db.select({ n: distinct }).from(demoDailyViewers).where(filter);
  if (!granularity) return { total: total?.n ?? 0, byPeriod: new Map<string, number>() };
  const rows = await db
    .select({ period: periodOf(demoDailyViewers.day, granularity), n: distinct })
    .from(demoDailyViewers)
    .where(filter)
    .groupBy(sql`1`);
  return { total: total?.n ?? 0, byPeriod: new Map(rows.map((r) => [r.period, r.n])) };
}

/**
 * The day sketches of the range: a demo's own, or the workspace's (kept over all its demos at ingestion, so
 * the overview merges one sketch per day, not one per demo and day). Internal and external days are
 * separate rows.
 */
export async function daySketches(db: Executor, target: Target, range: Range) {
  const days = (t: { day: PgColumn; internal: PgColumn }) => {
    const conditions: SQL[] = [];
    if (!range.includeInternal) conditions.push(eq(t.internal, false));
    if (range.fromDay) conditions.push(gte(t.day, range.fromDay));
    if (range.toDay) conditions.push(lte(t.day, range.toDay));
    return conditions;
  };
  const rows =
    'demoId' in target
      ? await db
          .select({ day: demoDailySketches.day, sketch: demoDailySketches.sketch })
          .from(demoDailySketches)
          .where(and(eq(demoDailySketches.demoId, target.demoId), ...days(demoDailySketches)))
      : await db
          .select({ day: workspaceDailySketches.day, sketch: workspaceDailySketches.sketch })
          .from(workspaceDailySketches)
          .where(and(eq(workspaceDailySketches.workspaceId, target.workspaceId), ...days(workspaceDailySketches)));
  return rows.map((r) => ({ day: r.day, sketch: new Uint8Array(r.sketch) }));
}

/** Per link: views, completions, last view, and exact distinct viewers. A revoked link keeps its figures. */
export async function linkTotals(db: Executor, demoId: string, range: Range) {
  const s = demoDailySegments;
  const views = int(s.views);
  const [totals, viewers] = await Promise.all([
    db
      .select({
        shareId: s.shareId,
        name: shares.name,
        variables: shares.variables,
        revokedAt: shares.revokedAt,
        views,
        completions: int(s.completions),
        lastViewedAt: sql<Date>`max(${s.lastViewedAt})`.mapWith(s.lastViewedAt),
      })
      .from(s)
      .leftJoin(shares, eq(shares.id, s.shareId))
      .where(and(where(s, { demoId }, range), ne(s.shareId, '')))
      .groupBy(s.shareId, shares.name, shares.variables, shares.revokedAt)
      .orderBy(desc(views), asc(s.shareId)),
    db
      .select({ shareId: demoDailyViewers.shareId, n: sql<number>`count(distinct ${demoDailyViewers.viewerKey})::int`.mapWith(Number) })
      .from(demoDailyViewers)
      .where(where(demoDailyViewers, { demoId }, { ...range, version: undefined }))
      .groupBy(demoDailyViewers.shareId),
  ]);
  const byLink = new Map(viewers.map((v) => [v.shareId, v.n]));
  return totals.map((t) => ({ ...t, viewers: byLink.get(t.shareId) ?? 0 }));
}

/** Per e-mail domain of identified views: views, completions, last view, distinct addresses. */
export async function companyTotals(db: Executor, demoId: string, range: Range) {
  const s = demoDailySegments;
  const domain = sql<string>`lower(split_part(${demoDailyViewers.viewerKey}, '@', 2))`;
  const [totals, viewers] = await Promise.all([
    db
      .select({
        company: s.company,
        views: int(s.views),
        completions: int(s.completions),
        lastViewedAt: sql<Date>`max(${s.lastViewedAt})`.mapWith(s.lastViewedAt),
      })
      .from(s)
      .where(and(where(s, { demoId }, range), ne(s.company, '')))
      .groupBy(s.company),
    db
      .select({ company: domain, n: sql<number>`count(distinct ${demoDailyViewers.viewerKey})::int`.mapWith(Number) })
      .from(demoDailyViewers)
      .where(and(where(demoDailyViewers, { demoId }, { ...range, version: undefined }), sql`${demoDailyViewers.viewerKey} like '%@%'`))
      .groupBy(sql`1`),
  ]);
  const byCompany = new Map(viewers.map((v) => [v.company, v.n]));
  return totals.map((t) => ({ ...t, viewers: byCompany.get(t.company) ?? 0 }));
}

/** One view of the workspace's demo, with its step rows in the order they were reached. */
export async function findViewWithSteps(db: Executor, demoId: string, viewId: string) {
  const [view] = await db
    .select()
    .from(views)
    .where(and(eq(views.id, viewId), eq(views.demoId, demoId)))
    .limit(1);
  if (!view) return undefined;
  const steps = await db
    .select()
    .from(viewSteps)
    // The view's start names the one partition its steps are in.
    .where(and(eq(viewSteps.viewId, viewId), eq(viewSteps.viewStartedAt, view.startedAt)))
    .orderBy(asc(viewSteps.firstReachedAt), asc(viewSteps.stepNumber));
  return { view, steps };
}

/**
 * The same person's other views in the workspace, newest first: by e-mail, as a visitor id lives for one
 * viewer session, which holds one view.
 */
export async function otherViews(db: Executor, workspaceId: string, viewId: string, email: string, limit: number) {
  return db
    .select({
      id: views.id,
      demoId: views.demoId,
      demoTitle: demos.title,
      startedAt: views.startedAt,
      completed: views.completed,
      stepsViewed: views.stepsViewed,
      durationSeconds: views.durationSeconds,
    })
    .from(views)
    .innerJoin(demos, eq(demos.id, views.demoId))
    .where(and(eq(views.workspaceId, workspaceId), eq(views.viewerEmail, email), ne(views.id, viewId)))
    .orderBy(desc(views.startedAt), desc(views.id))
    .limit(limit);
}

/** Chapter choices: events, distinct views, and those views' demo completions, per chapter. */
export async function chapterTotals(db: Executor, demoId: string, range: Range) {
  const t = demoChapterDailyStats;
  return db
    .select({ chapterId: t.chapterId, choices: int(t.choices), views: int(t.views), completions: int(t.completions) })
    .from(t)
    .where(where(t, { demoId }, range))
    .groupBy(t.chapterId)
    .orderBy(desc(int(t.views)), asc(t.chapterId));
}

/** Views that reached each step under each chapter chosen: the per-chapter funnels. */
export async function chapterStepTotals(db: Executor, demoId: string, range: Range) {
  const t = demoChapterStepDailyStats;
  return db
    .select({ chapterId: t.chapterId, stepNumber: t.stepNumber, views: int(t.views) })
    .from(t)
    .where(where(t, { demoId }, range))
    .groupBy(t.chapterId, t.stepNumber)
    .orderBy(asc(t.chapterId), asc(t.stepNumber));
}

/** Views per path (the chapters chosen, in order), most first; paths left with no view are skipped. */
export async function pathTotals(db: Executor, demoId: string, range: Range, limit: number) {
  const t = demoPathDailyStats;
  const views = int(t.views);
  return db
    .select({ path: t.path, views })
    .from(t)
    .where(where(t, { demoId }, range))
    .groupBy(t.path)
    .having(sql`sum(${t.views}) > 0`)
    .orderBy(desc(views), asc(t.path))
    .limit(limit);
}

/** Hotspot and button uses and CTA clicks per step and element. */
export async function elementTotals(db: Executor, demoId: string, range: Range) {
  const t = demoElementDailyStats;
  return db
    .select({
      stepNumber: t.stepNumber,
      elementId: t.elementId,
      // Any version's word for it: the labels come from the versions, the type only names an element no version has.
      actionType: sql<string | null>`max(${t.actionType})`,
      actionClicks: int(t.actionClicks),
      actionViews: int(t.actionViews),
      ctaClicks: int(t.ctaClicks),
      ctaViews: int(t.ctaViews),
    })
    .from(t)
    .where(where(t, { demoId }, range))
    .groupBy(t.stepNumber, t.elementId)
    .orderBy(asc(t.stepNumber), asc(t.elementId));
}

/** Lead-form stages per step: views shown the form, that started it, that sent it. */
export async function formTotals(db: Executor, demoId: string, range: Range) {
  const t = demoFormDailyStats;
  return db
    .select({ stepNumber: t.stepNumber, shown: int(t.shown), started: int(t.started), submitted: int(t.submitted) })
    .from(t)
    .where(where(t, { demoId }, range))
    .groupBy(t.stepNumber)
    .orderBy(asc(t.stepNumber));
}
