import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { members } from '../accounts/accounts.tables';
import type { Executor } from '../db/client';
import { apiKeys } from './api-keys.tables';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertKey(db: Executor, row: typeof apiKeys.$inferInsert) {
  const [created] = await db.insert(apiKeys).values(row).returning();
  return created!;
}

/** A key with its member's current role; undefined for unknown digests and for removed members. */
export async function findKeyByDigest(db: Executor, digest: string) {
  const [row] = await db
    .select({ key: apiKeys, member: members })
    .from(apiKeys)
    .innerJoin(members, eq(members.id, apiKeys.memberId))
    .where(eq(apiKeys.digest, digest))
    .limit(1);
  return row;
}

export async function findKey(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, id)))
    .limit(1);
  return row;
}

/** Unrevoked keys of a workspace, newest first; only one member's when `memberId` is given. */
export async function listKeys(
  db: Executor,
  workspaceId: string,
  memberId: string | undefined,
  page: { limit: number; offset: number },
) {
  const where = and(
    eq(apiKeys.workspaceId, workspaceId),
    isNull(apiKeys.revokedAt),
    memberId ? eq(apiKeys.memberId, memberId) : undefined,
  );
  const rows = await db
    .select({ key: apiKeys, memberEmail: members.email })
    .from(apiKeys)
    .innerJoin(members, eq(members.id, apiKeys.memberId))
    .where(where)
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(apiKeys).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function updateKey(db: Executor, id: string, patch: Partial<typeof apiKeys.$inferInsert>) {
  const [row] = await db.update(apiKeys).set(patch).where(eq(apiKeys.id, id)).returning();
  return row;
}
