import { and, count, desc, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { members, users } from '../accounts/accounts.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import type { Executor } from '../db/client';
import { oauthApps, oauthCodes, oauthGrants, oauthTokens } from './oauth.tables';

export type OAuthAppRow = typeof oauthApps.$inferSelect;

export async function insertApp(db: Executor, row: typeof oauthApps.$inferInsert) {
  const [created] = await db.insert(oauthApps).values(row).returning();
  return created!;
}

export async function findApp(db: Executor, id: string) {
  const [row] = await db.select().from(oauthApps).where(eq(oauthApps.id, id)).limit(1);
  return row;
}

/** The name of the workspace that registered an app (what the consent page shows as its owner). */
export async function workspaceName(db: Executor, workspaceId: string) {
  const [row] = await db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, workspaceId)).limit(1);
  return row?.name ?? null;
}

export async function listApps(db: Executor, workspaceId: string, page: { limit: number; offset: number }) {
  const where = eq(oauthApps.workspaceId, workspaceId);
  const rows = await db
    .select()
    .from(oauthApps)
    .where(where)
    .orderBy(desc(oauthApps.createdAt), desc(oauthApps.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(oauthApps).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function updateApp(db: Executor, id: string, patch: Partial<typeof oauthApps.$inferInsert>) {
  const [row] = await db.update(oauthApps).set(patch).where(eq(oauthApps.id, id)).returning();
  return row;
}

export async function deleteApp(db: Executor, id: string) {
  await db.delete(oauthApps).where(eq(oauthApps.id, id));
}

export async function grantIdsOfApp(db: Executor, appId: string) {
  const rows = await db.select({ id: oauthGrants.id }).from(oauthGrants).where(eq(oauthGrants.appId, appId));
  return rows.map((r) => r.id);
}

export async function insertGrant(db: Executor, row: typeof oauthGrants.$inferInsert) {
  const [created] = await db.insert(oauthGrants).values(row).returning();
  return created!;
}

/** Revokes a grant and its tokens; returns the grant only when this call revoked it (not already revoked). */
export async function revokeGrant(db: Executor, id: string, at: Date, reason: string) {
  const [revoked] = await db
    .update(oauthGrants)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.revokedAt)))
    .returning();
  await db.update(oauthTokens).set({ revokedAt: at }).where(and(eq(oauthTokens.grantId, id), isNull(oauthTokens.revokedAt)));
  await db.update(oauthTokens).set({ successorSealed: null }).where(and(eq(oauthTokens.grantId, id), isNotNull(oauthTokens.successorSealed)));
  return revoked;
}

export async function insertCode(db: Executor, row: typeof oauthCodes.$inferInsert) {
  await db.insert(oauthCodes).values(row);
}

/**
 * Consumes a code atomically: of two concurrent exchanges of one code exactly one gets the row, so a code
 * can never buy two token pairs.
 */
export async function consumeCode(db: Executor, digest: string, now: Date) {
  const [row] = await db
    .update(oauthCodes)
    .set({ consumedAt: now })
    .where(and(eq(oauthCodes.digest, digest), isNull(oauthCodes.consumedAt)))
    .returning();
  return row;
}

export async function findCode(db: Executor, digest: string) {
  const [row] = await db.select().from(oauthCodes).where(eq(oauthCodes.digest, digest)).limit(1);
  return row;
}

export async function insertToken(db: Executor, row: typeof oauthTokens.$inferInsert) {
  await db.insert(oauthTokens).values(row);
}

/** A token with its grant and the grant's member (current role). */
export async function findToken(db: Executor, digest: string) {
  const [row] = await db
    .select({ token: oauthTokens, grant: oauthGrants, member: members })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .innerJoin(members, eq(members.id, oauthGrants.memberId))
    .where(eq(oauthTokens.digest, digest))
    .limit(1);
  return row;
}

/** Marks a refresh token used; false when it already was (a replay). */
export async function useRefreshToken(db: Executor, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(oauthTokens)
    .set({ usedAt: now })
    .where(and(eq(oauthTokens.id, id), isNull(oauthTokens.usedAt), isNull(oauthTokens.revokedAt)))
    .returning({ id: oauthTokens.id });
  return rows.length === 1;
}

/**
 * Keeps what a refresh issued (sealed) on the used token for the grace window, and forgets the copies of
 * the grant's earlier refreshes whose window has passed: sealed tokens are never kept longer than needed.
 */
export async function recordSuccessor(db: Executor, id: string, grantId: string, sealed: string, graceEndedBefore: Date) {
  await db
    .update(oauthTokens)
    .set({ successorSealed: null })
    .where(and(eq(oauthTokens.grantId, grantId), isNotNull(oauthTokens.successorSealed), lt(oauthTokens.usedAt, graceEndedBefore)));
  await db.update(oauthTokens).set({ successorSealed: sealed }).where(eq(oauthTokens.id, id));
}

export async function revokeToken(db: Executor, id: string, now: Date) {
  await db
    .update(oauthTokens)
    .set({ revokedAt: sql`coalesce(${oauthTokens.revokedAt}, ${now})` })
    .where(eq(oauthTokens.id, id));
}

export async function findGrantWithMember(db: Executor, grantId: string) {
  const [row] = await db
    .select({ grant: oauthGrants, member: members })
    .from(oauthGrants)
    .innerJoin(members, eq(members.id, oauthGrants.memberId))
    .where(eq(oauthGrants.id, grantId))
    .limit(1);
  return row;
}

/**
 * Live authorisations (not revoked, member still active) of one user across their workspaces, or of every
 * member of one workspace, newest first, with the app, workspace and user they name.
 */
export async function listGrants(
  db: Executor,
  of: { userId: string } | { workspaceId: string },
  page: { limit: number; offset: number },
) {
  const where = and(
    'userId' in of ? eq(oauthGrants.userId, of.userId) : eq(oauthGrants.workspaceId, of.workspaceId),
    isNull(oauthGrants.revokedAt),
    eq(members.status, 'active'),
  );
  const rows = await db
    .select({
      grant: oauthGrants,
      app: { id: oauthApps.id, name: oauthApps.name, verified: oauthApps.verified },
      workspace: { id: workspaces.id, name: workspaces.name },
      userEmail: users.email,
    })
    .from(oauthGrants)
    .innerJoin(members, eq(members.id, oauthGrants.memberId))
    .innerJoin(oauthApps, eq(oauthApps.id, oauthGrants.appId))
    .innerJoin(workspaces, eq(workspaces.id, oauthGrants.workspaceId))
    .innerJoin(users, eq(users.id, oauthGrants.userId))
    .where(where)
    .orderBy(desc(oauthGrants.createdAt), desc(oauthGrants.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db
    .select({ n: count() })
    .from(oauthGrants)
    .innerJoin(members, eq(members.id, oauthGrants.memberId))
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findGrant(db: Executor, id: string) {
  const [row] = await db.select().from(oauthGrants).where(eq(oauthGrants.id, id)).limit(1);
  return row;
}

/** Records a use of the grant unless one was recorded less than `intervalMs` ago (by any process). */
export async function touchGrant(db: Executor, id: string, now: Date, intervalMs: number) {
  await db
    .update(oauthGrants)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(oauthGrants.id, id),
        or(isNull(oauthGrants.lastUsedAt), lt(oauthGrants.lastUsedAt, new Date(now.getTime() - intervalMs))),
      ),
    );
}
