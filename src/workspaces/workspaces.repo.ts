// Queries on the workspaces and workspace_logos tables, the one place that reads or writes them.
import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { workspaceLogos, workspaces } from './workspaces.tables';

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type LogoRow = typeof workspaceLogos.$inferSelect;

export async function findWorkspace(db: Executor, id: string) {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id)).limit(1);
  return row;
}

/** The workspaces of `ids` that exist, in no particular order. */
export async function findWorkspaces(db: Executor, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(workspaces)
    .where(inArray(workspaces.id, [...ids]));
}

export async function insertWorkspace(tx: Executor, row: typeof workspaces.$inferInsert) {
  const [created] = await tx.insert(workspaces).values(row).returning();
  return created!;
}

/**
 * Locks the workspace row until the transaction ends and returns it (undefined when there is none): a
 * settings change reads what it changes under the lock, and checks that count across the workspace
 * (generations running, for one) hold under concurrent requests.
 */
export async function lockWorkspace(tx: Executor, id: string) {
  const [row] = await tx.select().from(workspaces).where(eq(workspaces.id, id)).limit(1).for('update');
  return row;
}

export async function updateWorkspace(tx: Executor, id: string, patch: Partial<typeof workspaces.$inferInsert>) {
  const [row] = await tx.update(workspaces).set(patch).where(eq(workspaces.id, id)).returning();
  return row!;
}

export async function findLogo(db: Executor, workspaceId: string) {
  const [row] = await db.select().from(workspaceLogos).where(eq(workspaceLogos.workspaceId, workspaceId)).limit(1);
  return row;
}

export async function upsertLogo(tx: Executor, row: typeof workspaceLogos.$inferInsert) {
  const { workspaceId: _, ...rest } = row;
  await tx.insert(workspaceLogos).values(row).onConflictDoUpdate({ target: workspaceLogos.workspaceId, set: rest });
}

export async function deleteLogo(tx: Executor, workspaceId: string) {
  await tx.delete(workspaceLogos).where(eq(workspaceLogos.workspaceId, workspaceId));
}
