import { and, asc, count, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { demoDailyStats, demoStepDailyStats, viewSteps, views } from './views.tables';

export interface ViewFilter {
  from?: Date;
  to?: Date;
  viewerEmail?: string;
}

export async function listViews(db: Executor, demoId: string, filter: ViewFilter, page: { limit: number; offset: number }) {
  const conditions: SQL[] = [eq(views.demoId, demoId)];
  if (filter.from) conditions.push(gte(views.startedAt, filter.from));
  if (filter.to) conditions.push(lte(views.startedAt, filter.to));
  if (filter.viewerEmail) conditions.push(eq(views.viewerEmail, filter.viewerEmail.toLowerCase()));
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

export async function dailyTotals(db: Executor, demoId: string, fromDay?: string, toDay?: string) {
  const conditions: SQL[] = [eq(demoDailyStats.demoId, demoId)];
  if (fromDay) conditions.push(gte(demoDailyStats.day, fromDay));
  if (toDay) conditions.push(lte(demoDailyStats.day, toDay));
  return db.select().from(demoDailyStats).where(and(...conditions)).orderBy(asc(demoDailyStats.day));
}

export async function stepTotals(db: Executor, demoId: string, fromDay?: string, toDay?: string) {
  const conditions: SQL[] = [eq(demoStepDailyStats.demoId, demoId)];
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
) {
  const conditions: SQL[] = [eq(views.demoId, demoId)];
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
