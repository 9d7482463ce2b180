// The links demo hubs make for their entries (shares.hub_id): made, kept in step with the hub's gates, revoked.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { shares } from './shares.tables';

export async function insertHubLink(db: Executor, row: typeof shares.$inferInsert) {
  const [created] = await db.insert(shares).values(row).returning();
  return created!;
}

/**
 * Gives every active link of the hub the hub's gates; `bumpPassword` moves their password version on, so
 * viewer sessions unlocked with the old password stop working. Returns the ids changed (for the caches).
 */
export async function setHubLinkGates(
  db: Executor,
  hubId: string,
  gates: Pick<typeof shares.$inferInsert, 'passwordHash' | 'expiresAt' | 'requireIdentification' | 'allowedEmails' | 'allowedDomains'>,
  bumpPassword: boolean,
  now: Date,
) {
  const rows = await db
    .update(shares)
    .set({
      ...gates,
      updatedAt: now,
      ...(bumpPassword ? { passwordVersion: sql`${shares.passwordVersion} + 1` } : {}),
    })
    .where(and(eq(shares.hubId, hubId), isNull(shares.revokedAt)))
    .returning({ id: shares.id });
  return rows.map((r) => r.id);
}

/** Revokes the given links of the hub (all of them without `ids`); answers the ids revoked. */
export async function revokeHubLinks(db: Executor, hubId: string, now: Date, ids?: readonly string[]) {
  const rows = await db
    .update(shares)
    .set({ revokedAt: now, updatedAt: now })
    .where(and(eq(shares.hubId, hubId), isNull(shares.revokedAt), ids ? inArray(shares.id, [...ids]) : undefined))
    .returning({ id: shares.id });
  return rows.map((r) => r.id);
}

export async function findHubLinks(db: Executor, hubId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(shares)
    .where(and(eq(shares.hubId, hubId), inArray(shares.id, [...ids])));
}
