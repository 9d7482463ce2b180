import { and, eq, gt, lt } from 'drizzle-orm';
import { members, sessions, workspaces } from '../accounts/accounts.tables';
import type { Executor } from '../db/client';
import { shareAccessLog, shares, viewerSessions } from '../shares/shares.tables';

/**
 * The viewer's queries. The tables are the links' (shares.tables.ts: a session and an access-log line
 * belong to their link and go with it); what viewers do with them is this domain's.
 */

/** A link by its token, revoked or not: every viewer request is decided on it. */
export async function findLinkByToken(db: Executor, token: string) {
  const [row] = await db
    .select({
      share: shares,
      workspace: {
        id: workspaces.id,
        name: workspaces.name,
        brandColor: workspaces.brandColor,
        font: workspaces.font,
        logoSha256: workspaces.logoSha256,
      },
    })
    .from(shares)
    .innerJoin(workspaces, eq(workspaces.id, shares.workspaceId))
    .where(eq(shares.token, token))
    .limit(1);
  return row;
}

export async function insertAccessLog(db: Executor, row: typeof shareAccessLog.$inferInsert) {
  await db.insert(shareAccessLog).values(row);
}

/** Whether the app session with this digest is live and its user a member of the workspace. */
export async function isMemberSession(db: Executor, tokenDigest: string, workspaceId: string, now: Date) {
  const [row] = await db
    .select({ id: members.id })
    .from(sessions)
    .innerJoin(members, and(eq(members.userId, sessions.userId), eq(members.workspaceId, workspaceId)))
    .where(and(eq(sessions.tokenDigest, tokenDigest), gt(sessions.expiresAt, now)))
    .limit(1);
  return row !== undefined;
}

export async function insertViewerSession(db: Executor, row: typeof viewerSessions.$inferInsert) {
  const [created] = await db.insert(viewerSessions).values(row).returning();
  return created!;
}

export async function findViewerSession(db: Executor, id: string) {
  const [row] = await db.select().from(viewerSessions).where(eq(viewerSessions.id, id)).limit(1);
  return row;
}

export async function updateViewerSession(db: Executor, id: string, patch: Partial<typeof viewerSessions.$inferInsert>) {
  const [row] = await db.update(viewerSessions).set(patch).where(eq(viewerSessions.id, id)).returning();
  return row!;
}

/** Sessions past their expiry; their ingested event ids go with them by cascade. */
export async function deleteExpiredSessions(db: Executor, now: Date) {
  const rows = await db.delete(viewerSessions).where(lt(viewerSessions.expiresAt, now)).returning({ id: viewerSessions.id });
  return rows.length;
}

export async function deleteAccessLogBefore(db: Executor, before: Date) {
  const rows = await db.delete(shareAccessLog).where(lt(shareAccessLog.at, before)).returning({ id: shareAccessLog.id });
  return rows.length;
}
