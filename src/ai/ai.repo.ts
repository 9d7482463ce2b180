// Queries on ai_settings, the one place that reads or writes it.
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { aiSettings } from './ai.tables';

export type AiSettingsRow = typeof aiSettings.$inferSelect;

export async function findSettings(db: Executor, workspaceId: string): Promise<AiSettingsRow | undefined> {
  const [row] = await db.select().from(aiSettings).where(eq(aiSettings.workspaceId, workspaceId)).limit(1);
  return row;
}

/** Locks the workspace's row (when there is one) so that a change reads what it replaces under the lock. */
export async function lockSettings(tx: Executor, workspaceId: string): Promise<AiSettingsRow | undefined> {
  const [row] = await tx.select().from(aiSettings).where(eq(aiSettings.workspaceId, workspaceId)).limit(1).for('update');
  return row;
}

/** Inserts or replaces the workspace's row: two admins saving at once leave one of the two, whole. */
export async function saveSettings(tx: Executor, row: typeof aiSettings.$inferInsert): Promise<AiSettingsRow> {
  const { workspaceId: _, createdAt: __, ...changes } = row;
  const [saved] = await tx.insert(aiSettings).values(row).onConflictDoUpdate({ target: aiSettings.workspaceId, set: changes }).returning();
  return saved!;
}

/** Deletes the workspace's row; false when there was none. */
export async function deleteSettings(tx: Executor, workspaceId: string): Promise<boolean> {
  const deleted = await tx.delete(aiSettings).where(eq(aiSettings.workspaceId, workspaceId)).returning({ id: aiSettings.workspaceId });
  return deleted.length > 0;
}
