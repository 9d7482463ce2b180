// Queries on the leads: the submission's insert (once per session and client id), the lists and the export.
import { and, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { demos } from '../demos/demos.tables';
import { shares } from '../shares/shares.tables';
import { leads } from './leads.tables';
import type { LeadFilters } from './leads.schemas';

export type NewLeadRow = typeof leads.$inferInsert;
export type LeadRow = typeof leads.$inferSelect & { demoTitle: string; shareName: string | null };

/** The lead, or undefined when this session already sent this client id (then nothing is written). */
export async function insertLead(tx: Executor, row: NewLeadRow) {
  const [inserted] = await tx
    .insert(leads)
    .values(row)
    .onConflictDoNothing({ target: [leads.sessionId, leads.clientId] })
    .returning();
  return inserted;
}

/** The lead a session made with this client id, if any: a retried submission's answer. */
export async function findByClient(db: Executor, sessionId: string, clientId: string) {
  const [row] = await db
    .select()
    .from(leads)
    .where(and(eq(leads.sessionId, sessionId), eq(leads.clientId, clientId.toLowerCase())));
  return row;
}

/**
 * The lead a demo got with this client id from any session: a retry whose session was lost with the first
 * answer (no cookie, no token) comes back in another one. Client ids are random UUIDs made per submission.
 */
export async function findByDemoClient(db: Executor, demoId: string, clientId: string) {
  const [row] = await db
    .select()
    .from(leads)
    .where(and(eq(leads.demoId, demoId), eq(leads.clientId, clientId.toLowerCase())))
    .limit(1);
  return row;
}

function where(workspaceId: string, f: LeadFilters): SQL | undefined {
  return and(
    eq(leads.workspaceId, workspaceId),
    f.demoId ? eq(leads.demoId, f.demoId) : undefined,
    f.shareId ? eq(leads.shareId, f.shareId) : undefined,
    f.from ? gte(leads.createdAt, f.from) : undefined,
    f.to ? lte(leads.createdAt, f.to) : undefined,
  );
}

const columns = {
  id: leads.id,
  workspaceId: leads.workspaceId,
  demoId: leads.demoId,
  shareId: leads.shareId,
  sessionId: leads.sessionId,
  viewId: leads.viewId,
  version: leads.version,
  stepNumber: leads.stepNumber,
  stepId: leads.stepId,
  clientId: leads.clientId,
  email: leads.email,
  name: leads.name,
  values: leads.values,
  identified: leads.identified,
  createdAt: leads.createdAt,
  demoTitle: demos.title,
  shareName: shares.name,
};

/** A page of the workspace's leads that pass the filters, newest first, with their demo's title and link's name. */
export async function listLeads(db: Executor, workspaceId: string, f: LeadFilters, range: { limit: number; offset: number }) {
  const rows: LeadRow[] = await db
    .select(columns)
    .from(leads)
    .innerJoin(demos, eq(demos.id, leads.demoId))
    .leftJoin(shares, eq(shares.id, leads.shareId))
    .where(where(workspaceId, f))
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .limit(range.limit)
    .offset(range.offset);
  const [total] = await db.select({ n: count() }).from(leads).where(where(workspaceId, f));
  return { rows, total: total?.n ?? 0 };
}
