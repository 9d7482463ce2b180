// Queries of hub viewer sessions, opens and the hub's figures (its entry links' views included).
import { and, count, desc, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { views } from '../viewing/viewing.tables';
import { hubOpens, hubSessions } from './hubs.tables';

export type HubSessionRow = typeof hubSessions.$inferSelect;

export async function insertSession(db: Executor, row: typeof hubSessions.$inferInsert) {
  const [created] = await db.insert(hubSessions).values(row).returning();
  return created!;
}

export async function findSession(db: Executor, id: string) {
  const [row] = await db.select().from(hubSessions).where(eq(hubSessions.id, id)).limit(1);
  return row;
}

/** The session, locked for the rest of `tx`: a concurrent identification of it waits, then reads this one's. */
export async function lockSession(tx: Executor, id: string) {
  const [row] = await tx.select().from(hubSessions).where(eq(hubSessions.id, id)).for('update');
  return row;
}

export async function updateSession(db: Executor, id: string, patch: Partial<typeof hubSessions.$inferInsert>) {
  const [row] = await db.update(hubSessions).set(patch).where(eq(hubSessions.id, id)).returning();
  return row!;
}

export async function insertOpen(db: Executor, row: typeof hubOpens.$inferInsert) {
  await db.insert(hubOpens).values(row);
}

/** Visits (sessions opened, members' own left out) and distinct identified visitors in [from, to]. */
export async function visitTotals(db: Executor, hubId: string, from: Date, to: Date) {
  const [row] = await db
    .select({
      visits: count(),
      identified: sql<number>`count(distinct ${hubSessions.viewerEmail})::int`,
    })
    .from(hubSessions)
    .where(and(eq(hubSessions.hubId, hubId), eq(hubSessions.internal, false), gte(hubSessions.createdAt, from), lte(hubSessions.createdAt, to)));
  return { visits: Number(row?.visits ?? 0), identified: Number(row?.identified ?? 0) };
}

/** Demos opened from the hub in [from, to], per entry. */
export async function opensByEntry(db: Executor, hubId: string, from: Date, to: Date) {
  const rows = await db
    .select({ entryId: hubOpens.entryId, opens: count() })
    .from(hubOpens)
    .where(and(eq(hubOpens.hubId, hubId), eq(hubOpens.internal, false), gte(hubOpens.at, from), lte(hubOpens.at, to)))
    .groupBy(hubOpens.entryId);
  return rows.map((r) => ({ entryId: r.entryId, opens: Number(r.opens) }));
}

/** Views started and completed in [from, to] on the given links (the hub's entries), per link. */
export async function viewsByLink(db: Executor, shareIds: readonly string[], from: Date, to: Date) {
  if (shareIds.length === 0) return [];
  const rows = await db
    .select({
      shareId: views.shareId,
      views: count(),
      completions: sql<number>`count(*) filter (where ${views.completed})::int`,
    })
    .from(views)
    .where(
      and(
        inArray(views.shareId, [...shareIds]),
        eq(views.internal, false),
        gte(views.startedAt, from),
        lte(views.startedAt, to),
      ),
    )
    .groupBy(views.shareId);
  return rows.map((r) => ({ shareId: r.shareId!, views: Number(r.views), completions: Number(r.completions) }));
}

/** Visits, opens per UTC day in [from, to]. */
export async function dailyVisits(db: Executor, hubId: string, from: Date, to: Date) {
  const day = sql<string>`to_char(date_trunc('day', ${hubSessions.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, visits: count() })
    .from(hubSessions)
    .where(and(eq(hubSessions.hubId, hubId), eq(hubSessions.internal, false), gte(hubSessions.createdAt, from), lte(hubSessions.createdAt, to)))
    .groupBy(day);
  return rows.map((r) => ({ day: r.day, visits: Number(r.visits) }));
}

export async function dailyOpens(db: Executor, hubId: string, from: Date, to: Date) {
  const day = sql<string>`to_char(date_trunc('day', ${hubOpens.at} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, opens: count() })
    .from(hubOpens)
    .where(and(eq(hubOpens.hubId, hubId), eq(hubOpens.internal, false), gte(hubOpens.at, from), lte(hubOpens.at, to)))
    .groupBy(day);
  return rows.map((r) => ({ day: r.day, opens: Number(r.opens) }));
}

/** The latest identified visitors, with what the lead form asked and how many demos each opened. */
export async function recentVisitors(db: Executor, hubId: string, limit: number) {
  return db
    .select({
      email: hubSessions.viewerEmail,
      name: hubSessions.viewerName,
      values: hubSessions.values,
      identifiedAt: hubSessions.identifiedAt,
      demosOpened: sql<number>`count(${hubOpens.id})::int`,
    })
    .from(hubSessions)
    .leftJoin(hubOpens, eq(hubOpens.sessionId, hubSessions.id))
    .where(and(eq(hubSessions.hubId, hubId), isNotNull(hubSessions.viewerEmail), eq(hubSessions.internal, false)))
    .groupBy(hubSessions.id)
    .orderBy(desc(hubSessions.identifiedAt))
    .limit(limit);
}
