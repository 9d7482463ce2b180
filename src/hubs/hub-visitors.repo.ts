// Queries of a hub's identified visitors: their sessions (one per identification), and the demos each opened.
import { and, count, desc, eq, gte, isNotNull, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { demos } from '../demos/demos.tables';
import { hubEntries, hubOpens, hubSessions } from './hubs.tables';

/** What the list and the export filter on: `identified_at` in [from, to]. */
export interface VisitorFilter {
  from?: Date;
  to?: Date;
}

function where(hubId: string, f: VisitorFilter): SQL | undefined {
  return and(
    eq(hubSessions.hubId, hubId),
    isNotNull(hubSessions.viewerEmail),
    // Members' own visits (signed in to the web app) are not visitors.
    eq(hubSessions.internal, false),
    f.from ? gte(hubSessions.identifiedAt, f.from) : undefined,
    f.to ? lte(hubSessions.identifiedAt, f.to) : undefined,
  );
}

const columns = {
  id: hubSessions.id,
  email: hubSessions.viewerEmail,
  name: hubSessions.viewerName,
  values: hubSessions.values,
  identifiedAt: hubSessions.identifiedAt,
  createdAt: hubSessions.createdAt,
};

/** A page of the hub's identified sessions that pass the filter, newest identification first, and how many pass. */
export async function listVisitors(db: Executor, hubId: string, f: VisitorFilter, range: { limit: number; offset: number }) {
  const rows = await db
    .select(columns)
    .from(hubSessions)
    .where(where(hubId, f))
    .orderBy(desc(hubSessions.identifiedAt), desc(hubSessions.id))
    .limit(range.limit)
    .offset(range.offset);
  const [total] = await db.select({ n: count() }).from(hubSessions).where(where(hubId, f));
  return { rows, total: Number(total?.n ?? 0) };
}

export type VisitorRow = Awaited<ReturnType<typeof listVisitors>>['rows'][number];

/**
 * The demos these sessions opened from the hub, per session and demo, with the card's title (the entry's,
 * else the demo's). An open whose entry is gone since counts under a null demo. The ids go as one JSON
 * parameter: one statement whatever their number (an export's thousands), on pg and PGlite alike.
 */
export async function opensOf(db: Executor, hubId: string, sessionIds: readonly string[]) {
  if (sessionIds.length === 0) return [];
  const title = sql<string | null>`coalesce(${hubEntries.title}, ${demos.title})`;
  const rows = await db
    .select({ sessionId: hubOpens.sessionId, demoId: hubEntries.demoId, title, opens: count() })
    .from(hubOpens)
    .leftJoin(hubEntries, eq(hubEntries.id, hubOpens.entryId))
    .leftJoin(demos, eq(demos.id, hubEntries.demoId))
    .where(
      and(
        eq(hubOpens.hubId, hubId),
        sql`${hubOpens.sessionId} in (select json_array_elements_text(${JSON.stringify(sessionIds)}::json))`,
      ),
    )
    .groupBy(hubOpens.sessionId, hubEntries.demoId, title);
  return rows.map((r) => ({ sessionId: r.sessionId!, demoId: r.demoId, title: r.title, opens: Number(r.opens) }));
}
