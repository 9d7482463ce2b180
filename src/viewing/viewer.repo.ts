// The viewer's queries: links by token, viewer sessions and the access log (viewing.tables.ts).
import { and, count, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { members, sessions } from '../accounts/accounts.tables';
import { type DemoStatus, demos, demoVersions } from '../demos/demos.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import type { Executor } from '../db/client';
import { shares } from '../shares/shares.tables';
import { shareAccessLog, viewerSessions, views } from './viewing.tables';

/** A viewer session's row: declared once, for the gates, the cache and the ingestion. */
export type ViewerSessionRow = typeof viewerSessions.$inferSelect;

/** The newest version of the link's demo: the one viewers are served. */
const newestVersion = <T>(column: typeof demoVersions.number | typeof demoVersions.stepCount) =>
  sql<T | null>`(select ${column} from ${demoVersions} where ${demoVersions.demoId} = ${demos.id} order by ${demoVersions.number} desc limit 1)`;

/**
 * A link by its token, revoked or not, with everything every viewer request is decided on, in one query:
 * the link, its workspace as the share pages show it, and its demo's state (published or not, the version
 * viewers are served and its number of steps; the draft's own steps never count).
 */
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
      demoStatus: demos.status,
      version: newestVersion<number>(demoVersions.number),
      stepCount: newestVersion<number>(demoVersions.stepCount),
    })
    .from(shares)
    .innerJoin(workspaces, eq(workspaces.id, shares.workspaceId))
    .innerJoin(demos, eq(demos.id, shares.demoId))
    .where(eq(shares.token, token))
    .limit(1);
  return row && { ...row, demoStatus: row.demoStatus as DemoStatus, stepCount: row.stepCount ?? 0 };
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

/** The view of a viewer session, if it has one yet (a session has at most one: viewer_sessions.view_id). */
export async function findSessionView(db: Executor, sessionId: string) {
  const [row] = await db.select({ id: viewerSessions.viewId }).from(viewerSessions).where(eq(viewerSessions.id, sessionId));
  return row?.id ?? undefined;
}

/**
 * A lead form named the viewer: their view, where it names nobody yet, names them too (as the next events
 * would). Answers the view's id, if the session has a view. The session row names the view's partition.
 */
export async function nameSessionView(db: Executor, sessionId: string, viewer: { email: string; name: string | null }) {
  const [session] = await db
    .select({ viewId: viewerSessions.viewId, startedAt: viewerSessions.viewStartedAt })
    .from(viewerSessions)
    .where(eq(viewerSessions.id, sessionId));
  if (!session?.viewId || !session.startedAt) return undefined;
  await db
    .update(views)
    .set({ viewerEmail: viewer.email, viewerName: viewer.name })
    .where(and(eq(views.id, session.viewId), eq(views.startedAt, session.startedAt), sql`${views.viewerEmail} is null`));
  return session.viewId;
}

/** A link's sessions, when it is revoked (in its transaction): they can never be used again. */
export async function deleteLinkSessions(db: Executor, shareId: string) {
  await db.delete(viewerSessions).where(eq(viewerSessions.shareId, shareId));
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

/** A page of one link's access log, newest first, with the total. */
export async function listAccessLog(db: Executor, shareId: string, page: { limit: number; offset: number }) {
  const where = eq(shareAccessLog.shareId, shareId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(shareAccessLog)
      .where(where)
      .orderBy(desc(shareAccessLog.at), desc(shareAccessLog.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(shareAccessLog).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/**
 * Tokens of links of these demos that have no gate at all (public-assets.ts `isPublicLink` says the same of a
 * link it holds; the caller checks each with it again): the candidates whose payload may name a blob on a CDN.
 */
export async function ungatedLinkTokens(db: Executor, demoIds: readonly string[], limit = 20) {
  if (demoIds.length === 0) return [];
  const rows = await db
    .select({ token: shares.token })
    .from(shares)
    .innerJoin(demos, eq(demos.id, shares.demoId))
    .where(
      and(
        inArray(shares.demoId, [...demoIds]),
        eq(demos.status, 'published'),
        isNull(shares.revokedAt),
        isNull(shares.expiresAt),
        isNull(shares.passwordHash),
        eq(shares.requireIdentification, false),
        sql`cardinality(${shares.allowedEmails}) = 0`,
        sql`cardinality(${shares.allowedDomains}) = 0`,
      ),
    )
    .limit(limit);
  return rows.map((r) => r.token);
}
