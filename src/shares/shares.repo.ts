import { and, asc, count, desc, eq, isNull, lt } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { demos } from '../demos/demos.tables';
import { shareAccessLog, shares, viewerSessions } from './shares.tables';

export async function insertShare(db: Executor, row: typeof shares.$inferInsert) {
  const [created] = await db.insert(shares).values(row).returning();
  return created!;
}

/** Active (not revoked) links of one demo, oldest first: the first is the demo's share_url. */
export async function listShares(db: Executor, demoId: string) {
  return db
    .select()
    .from(shares)
    .where(and(eq(shares.demoId, demoId), isNull(shares.revokedAt)))
    .orderBy(asc(shares.createdAt), asc(shares.id));
}

export async function findShare(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(shares)
    .where(and(eq(shares.workspaceId, workspaceId), eq(shares.id, id), isNull(shares.revokedAt)))
    .limit(1);
  return row;
}

/** Revoked links too: their access log stays readable. */
export async function findShareEvenRevoked(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(shares)
    .where(and(eq(shares.workspaceId, workspaceId), eq(shares.id, id)))
    .limit(1);
  return row;
}

export async function lockShare(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(shares)
    .where(and(eq(shares.workspaceId, workspaceId), eq(shares.id, id), isNull(shares.revokedAt)))
    .for('update');
  return row;
}

export async function updateShare(db: Executor, id: string, patch: Partial<typeof shares.$inferInsert>) {
  const [row] = await db.update(shares).set(patch).where(eq(shares.id, id)).returning();
  return row!;
}

/** A link by its token, with the status of its demo: what every viewer request is decided on. */
export async function findLink(db: Executor, token: string) {
  const [row] = await db
    .select({ share: shares, demoStatus: demos.status })
    .from(shares)
    .innerJoin(demos, eq(demos.id, shares.demoId))
    .where(eq(shares.token, token))
    .limit(1);
  return row;
}

export async function deleteViewerSessions(db: Executor, shareId: string) {
  await db.delete(viewerSessions).where(eq(viewerSessions.shareId, shareId));
}

/** Deletes expired viewer sessions; returns how many went. */
export async function deleteExpiredViewerSessions(db: Executor, now: Date): Promise<number> {
  const rows = await db.delete(viewerSessions).where(lt(viewerSessions.expiresAt, now)).returning({ id: viewerSessions.id });
  return rows.length;
}

/** Deletes access log entries older than `before`; returns how many went. */
export async function deleteAccessLogBefore(db: Executor, before: Date): Promise<number> {
  const rows = await db.delete(shareAccessLog).where(lt(shareAccessLog.at, before)).returning({ id: shareAccessLog.id });
  return rows.length;
}

export async function insertAccessLog(db: Executor, row: typeof shareAccessLog.$inferInsert) {
  await db.insert(shareAccessLog).values(row);
}

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

// ---- viewer sessions -----------------------------------------------------------------------------

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
