import { and, asc, count, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { demoDailyStats, demoDailyViewers, demoStepDailyStats, viewSteps, views } from './views.tables';

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
 * Distinct viewers over whole UTC days, overall and per period, from the per-day viewer sets
 * (demo_daily_viewers): the cost follows the viewers of the range, not its views.
 */
export async function uniqueViewers(
  db: Executor,
  demoId: string,
  fromDay: string | undefined,
  toDay: string | undefined,
  granularity?: 'day' | 'week' | 'month',
  version?: number,
) {
  const conditions: SQL[] = [eq(demoDailyViewers.demoId, demoId)];
  if (version !== undefined) conditions.push(eq(demoDailyViewers.version, version));
  if (fromDay) conditions.push(gte(demoDailyViewers.day, fromDay));
  if (toDay) conditions.push(lte(demoDailyViewers.day, toDay));
  const distinct = sql<number>`count(distinct ${demoDailyViewers.viewerKey})::int`.mapWith(Number);
  const [total] = await db.select({ n: distinct }).from(demoDailyViewers).where(and(...conditions));
  if (!granularity) return { total: total?.n ?? 0, byPeriod: new Map<string, number>() };
  const period = sql<string>`to_char(date_trunc(${sql.raw(`'${granularity}'`)}, ${demoDailyViewers.day}::timestamp), 'YYYY-MM-DD')`;
  const rows = await db
    .select({ period, n: distinct })
    .from(demoDailyViewers)
    .where(and(...conditions))
    .groupBy(sql`1`);
  return { total: total?.n ?? 0, byPeriod: new Map(rows.map((r) => [r.period, r.n])) };
}
