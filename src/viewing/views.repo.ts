import { and, asc, count, desc, eq, getTableColumns, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { shares } from '../shares/shares.tables';
import { demoDailyStats, viewSteps, views } from './viewing.tables';

export interface ViewFilter {
  from?: Date;
  to?: Date;
  viewerEmail?: string;
  version?: number;
  includeInternal?: boolean;
}

export async function listViews(db: Executor, demoId: string, filter: ViewFilter, page: { limit: number; offset: number }) {
  const conditions: SQL[] = [eq(views.demoId, demoId)];
  if (filter.from) conditions.push(gte(views.startedAt, filter.from));
  if (filter.to) conditions.push(lte(views.startedAt, filter.to));
  if (filter.viewerEmail) conditions.push(eq(views.viewerEmail, filter.viewerEmail.toLowerCase()));
  if (filter.version !== undefined) conditions.push(eq(views.version, filter.version));
  if (!filter.includeInternal) conditions.push(eq(views.internal, false));
  const where = and(...conditions);
  const [rows, total] = await Promise.all([
    db
      // With the link's name and variables: a personalised link says which account watched.
      .select({ ...getTableColumns(views), linkName: shares.name, linkVariables: shares.variables })
      .from(views)
      .leftJoin(shares, eq(shares.id, views.shareId))
      .where(where)
      .orderBy(desc(views.startedAt), desc(views.id))
      .limit(page.limit)
      .offset(page.offset),
    countViews(db, demoId, filter, where),
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
  return { rows, stepRows, total };
}

const DAY_MS = 86_400_000;
const isDayStart = (at: Date) => at.getTime() % DAY_MS === 0;
const isDayEnd = (at: Date) => (at.getTime() + 1) % DAY_MS === 0;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * How many views match `filter`. Counting the rows is linear in the demo's views (32 ms at 50,000 on PGlite,
 * bench/embedded-maintenance.ts); when the bounds are whole UTC days (a date, not a timestamp, in the query)
 * and no viewer is named, the daily roll-up holds the same number in one row per day, version and audience,
 * kept in the transaction that adds each view (ingest.repo.ts) and rebuilt or deleted with them
 * (viewer-privacy). Otherwise the rows are counted.
 */
async function countViews(db: Executor, demoId: string, filter: ViewFilter, where: SQL | undefined): Promise<number> {
  const wholeDays = (!filter.from || isDayStart(filter.from)) && (!filter.to || isDayEnd(filter.to));
  if (filter.viewerEmail || !wholeDays) {
    const [row] = await db.select({ n: count() }).from(views).where(where);
    return row?.n ?? 0;
  }
  const conditions: SQL[] = [eq(demoDailyStats.demoId, demoId)];
  if (filter.from) conditions.push(gte(demoDailyStats.day, dayOf(filter.from)));
  if (filter.to) conditions.push(lte(demoDailyStats.day, dayOf(filter.to)));
  if (filter.version !== undefined) conditions.push(eq(demoDailyStats.version, filter.version));
  if (!filter.includeInternal) conditions.push(eq(demoDailyStats.internal, false));
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${demoDailyStats.views}), 0)::int`.mapWith(Number) })
    .from(demoDailyStats)
    .where(and(...conditions));
  return row?.n ?? 0;
}
