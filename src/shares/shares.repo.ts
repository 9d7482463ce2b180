import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { shares } from './shares.tables';

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

/** Counts new views on their links, one share at a time in id order (the lock order of every batch). */
export async function addShareViews(db: Executor, rows: Array<{ shareId: string; views: number; lastViewedAt: Date }>) {
  for (const row of [...rows].sort((a, b) => (a.shareId < b.shareId ? -1 : 1))) {
    await db
      .update(shares)
      .set({
        viewCount: sql`${shares.viewCount} + ${row.views}`,
        lastViewedAt: sql`greatest(${shares.lastViewedAt}, ${row.lastViewedAt.toISOString()}::timestamptz)`,
      })
      .where(eq(shares.id, row.shareId));
  }
}
