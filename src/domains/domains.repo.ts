import { and, asc, count, desc, eq, lte, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { customDomains } from './domains.tables';

export type DomainRow = typeof customDomains.$inferSelect;

export async function insertDomain(db: Executor, row: typeof customDomains.$inferInsert) {
  const [created] = await db.insert(customDomains).values(row).onConflictDoNothing().returning();
  return created;
}

export async function findDomain(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(customDomains)
    .where(and(eq(customDomains.workspaceId, workspaceId), eq(customDomains.id, id)))
    .limit(1);
  return row;
}

export async function listDomains(db: Executor, workspaceId: string, page: { limit: number; offset: number }) {
  const where = eq(customDomains.workspaceId, workspaceId);
  const rows = await db
    .select()
    .from(customDomains)
    .where(where)
    .orderBy(asc(customDomains.createdAt), asc(customDomains.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(customDomains).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** The workspace that holds a host name verified, and where its root leads: what the Host routing asks on a cache miss. */
export async function verifiedOwner(db: Executor, hostname: string) {
  const [row] = await db
    .select({ workspaceId: customDomains.workspaceId, rootUrl: customDomains.rootUrl })
    .from(customDomains)
    .where(and(eq(customDomains.hostname, hostname), eq(customDomains.status, 'verified')))
    .limit(1);
  return row;
}

/**
 * The domain a workspace's links use: the one an admin chose, else the oldest verified. The one definition of
 * `primary`, for the links (the host cache) and the API alike.
 */
export async function primaryDomain(db: Executor, workspaceId: string) {
  const [row] = await db
    .select({ id: customDomains.id, hostname: customDomains.hostname })
    .from(customDomains)
    .where(and(eq(customDomains.workspaceId, workspaceId), eq(customDomains.status, 'verified')))
    .orderBy(desc(customDomains.isPrimary), asc(customDomains.verifiedAt), asc(customDomains.id))
    .limit(1);
  return row;
}

/**
 * Locks every domain of a workspace, in one order, for the transaction that chooses the links' domain or
 * removes a domain: two admins choosing at once decide one after the other, a take-over or lapse of the chosen
 * domain cannot slip between its check and the write, and no choice lands between a removal's reads of the
 * links' domain before and after.
 */
export async function lockWorkspaceDomains(db: Executor, workspaceId: string) {
  return db.select().from(customDomains).where(eq(customDomains.workspaceId, workspaceId)).orderBy(asc(customDomains.id)).for('update');
}

/** Withdraws the workspace's choice of links' domain, before another is chosen (the unique index allows one). */
export async function clearPrimary(db: Executor, workspaceId: string, now: Date) {
  await db
    .update(customDomains)
    .set({ isPrimary: false, updatedAt: now })
    .where(and(eq(customDomains.workspaceId, workspaceId), eq(customDomains.isPrimary, true)));
}

/** Other workspaces' claims on the same name (any status): a CNAME cannot tell them apart. */
export async function otherClaims(db: Executor, hostname: string, workspaceId: string) {
  return db
    .select()
    .from(customDomains)
    .where(and(eq(customDomains.hostname, hostname), ne(customDomains.workspaceId, workspaceId)));
}

/**
 * Locks every claim on a name for the verification's transaction, so that two workspaces verifying the
 * same name at once decide one after the other (the unique partial index would refuse the second anyway).
 */
export async function lockClaims(db: Executor, hostname: string) {
  return db.select().from(customDomains).where(eq(customDomains.hostname, hostname)).for('update');
}

export async function updateDomain(db: Executor, id: string, patch: Partial<typeof customDomains.$inferInsert>) {
  const [row] = await db.update(customDomains).set(patch).where(eq(customDomains.id, id)).returning();
  return row;
}

export async function deleteDomain(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .delete(customDomains)
    .where(and(eq(customDomains.workspaceId, workspaceId), eq(customDomains.id, id)))
    .returning();
  return row;
}

/** Verified (or failing) domains last checked before `before`: the re-check's batch, oldest first. */
export async function dueForRecheck(db: Executor, before: Date, limit: number) {
  return db
    .select()
    .from(customDomains)
    .where(
      and(
        eq(customDomains.status, 'verified'),
        or(sql`${customDomains.lastCheckedAt} is null`, lte(customDomains.lastCheckedAt, before)),
      ),
    )
    .orderBy(sql`${customDomains.lastCheckedAt} asc nulls first`)
    .limit(limit);
}

