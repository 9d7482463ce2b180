// Queries on the e-mailed single-use links (verify an address, reset a password): a link is claimed by one conditional statement, so two clicks cannot both use it.
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { accountTokens } from './accounts.tables';

export type AccountTokenRow = typeof accountTokens.$inferSelect;
export type AccountTokenPurpose = AccountTokenRow['purpose'];

export async function insertAccountToken(db: Executor, row: typeof accountTokens.$inferInsert) {
  const [created] = await db.insert(accountTokens).values(row).returning();
  return created!;
}

/** Kills a user's unused links of one purpose: a new link replaces the earlier ones. */
export async function deleteUnusedTokens(db: Executor, userId: string, purpose: AccountTokenPurpose) {
  await db
    .delete(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
}

/**
 * Ends every unused link of a user, of both purposes; the ones ended, expired or not, so the caller can tell
 * which were still live.
 */
export async function deleteAllUnusedTokens(db: Executor, userId: string) {
  return db
    .delete(accountTokens)
    .where(and(eq(accountTokens.userId, userId), isNull(accountTokens.usedAt)))
    .returning({ purpose: accountTokens.purpose, email: accountTokens.email, expiresAt: accountTokens.expiresAt });
}

/**
 * Uses a link: the one statement that marks it used, only while it is unused and unexpired, so two uses of
 * one link cannot both succeed. Undefined when the link is unknown, used, replaced or expired.
 */
export async function claimAccountToken(db: Executor, digest: string, purpose: AccountTokenPurpose, now: Date) {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.tokenDigest, digest),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

/** The link behind `digest` whatever its state, to tell an expired link (410) from an unknown one (404). */
export async function findAccountToken(db: Executor, digest: string) {
  const [row] = await db.select().from(accountTokens).where(eq(accountTokens.tokenDigest, digest)).limit(1);
  return row;
}
