import { and, asc, count, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { demoDailyStats, demoStepDailyStats, viewSteps, views } from './views.tables';

export interface ViewFilter {
  from?: Date;
  to?: Date;
  viewerEmail?: string;
  version?: number;
}

export async function listViews(db: Executor, demoId: string, filter: ViewFilter, page: { limit: number; offset: number }) {
  const conditions: SQL[] = [eq(views.demoId, demoId)];
  if (filter.from) conditions.push(gte(views.startedAt, filter.from));
  if (filter.to) conditions.push(lte(views.startedAt, filter.to));
  if (filter.viewerEmail) conditions.push(eq(views.viewerEmail, filter.viewerEmail.toLowerCase()));
  if (filter.version !== undefined) conditions.push(eq(views.version, filter.version));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(views)
      .where(where)
      .orderBy(desc(views.startedAt), desc(views.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(views).where(where),
  ]);
  const stepRows =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(viewSteps)
          .where(
            inArray(
              viewSteps.viewId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(asc(viewSteps.stepNumber));
  return { rows, stepRows, total: total?.n ?? 0 };
}

/** Rows of one day are one per version: summed here, as the analytics never show versions side by side. */
export async function dailyTotals(db: Executor, demoId: string, fromDay?: string, toDay?: string, version?: number) {
  const conditions: SQL[] = [eq(demoDailyStats.demoId, demoId)];
  if (version !== undefined) conditions.push(eq(demoDailyStats.version, version));
  if (fromDay) conditions.push(gte(demoDailyStats.day, fromDay));
  if (toDay) conditions.push(lte(demoDailyStats.day, toDay));
  return db
    .select({
      day: demoDailyStats.day,
      views: sql<number>`sum(${demoDailyStats.views})::int`.mapWith(Number),
      completions: sql<number>`sum(${demoDailyStats.completions})::int`.mapWith(Number),
      durationSeconds: sql<number>`sum(${demoDailyStats.durationSeconds})::float8`.mapWith(Number),
    })
    .from(demoDailyStats)
    .where(and(...conditions))
    .groupBy(demoDailyStats.day)
    .orderBy(asc(demoDailyStats.day));
}

export async function stepTotals(db: Executor, demoId: string, fromDay?: string, toDay?: string, version?: number) {
  const conditions: SQL[] = [eq(demoStepDailyStats.demoId, demoId)];
  if (version !== undefined) conditions.push(eq(demoStepDailyStats.version, version));
  if (fromDay) conditions.push(gte(demoStepDailyStats.day, fromDay));
  if (toDay) conditions.push(lte(demoStepDailyStats.day, toDay));
  return db
    .select({
      stepNumber: demoStepDailyStats.stepNumber,
      views: sql<number>`sum(${demoStepDailyStats.views})::int`.mapWith(Number),
      seconds: sql<number>`sum(${demoStepDailyStats.seconds})::float8`.mapWith(Number),
      endedHere: sql<number>`sum(${demoStepDailyStats.endedHere})::int`.mapWith(Number),
    })
    .from(demoStepDailyStats)
    .where(and(...conditions))
    .groupBy(demoStepDailyStats.stepNumber)
    .orderBy(asc(demoStepDailyStats.stepNumber));
}

/**
 * Distinct viewers (e-mail, else the anonymous visitor id) overall and per period. Distinct counts do not
 * add up across days, so this one reads the views themselves, through the (demo_id, started_at) index.
 */
export async function uniqueViewers(
  db: Executor,
  demoId: string,
  from: Date | undefined,
  to: Date | undefined,
  granularity?: 'day' | 'week' | 'month',
  version?: number,
) {
  const conditions: SQL[] = [eq(views.demoId, demoId)];
  if (version !== undefined) conditions.push(eq(views.version, version));
  if (from) conditions.push(gte(views.startedAt, from));
  if (to) conditions.push(lte(views.startedAt, to));
  const who = sql`coalesce(${views.viewerEmail}, ${views.anonymousId})`;
  const [total] = await db
    .select({ n: sql<number>`count(distinct ${who})::int`.mapWith(Number) })
    .from(views)
    .where(and(...conditions));
  if (!granularity) return { total: total?.n ?? 0, byPeriod: new Map<string, number>() };
  const period = sql<string>`to_char(date_trunc(${sql.raw(`'${granularity}'`)}, ${views.startedAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const rows = await db
    .select({ period, n: sql<number>`count(distinct ${who})::int`.mapWith(Number) })
    .from(views)
    .where(and(...conditions))
    .groupBy(sql`1`);
  return { total: total?.n ?? 0, byPeriod: new Map(rows.map((r) => [r.period, r.n])) };
}
