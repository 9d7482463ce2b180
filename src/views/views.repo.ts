import { and, asc, count, desc, eq, gte, inArray, lte, type SQL, } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { viewSteps, views } from './views.tables';

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
