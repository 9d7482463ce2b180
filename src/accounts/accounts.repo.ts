// Queries on users, members, sessions: the accounts tables only (a workspace is asked of workspaces' reader).
import { and, desc, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client';
import { members, sessions, users } from './accounts.tables';

export type UserRow = typeof users.$inferSelect;
export type MemberRow = typeof members.$inferSelect;

export async function findUserByEmail(db: Executor, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function findUserById(db: Executor, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Whether the server has any account at all. */
export async function anyUser(db: Executor) {
  const [row] = await db.select({ id: users.id }).from(users).limit(1);
  return row !== undefined;
}

// Any constant of our own; the migrations lock another one (db/client.ts).
const FIRST_ACCOUNT_LOCK = 7_402_118_935;

/**
 * Serialises, until `tx` ends, the sign-ups that are let in only because the server has no account yet, so
 * that two sent at once cannot both find it empty.
 */
export async function lockFirstAccount(tx: Executor) {
  await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK})`);
}

export async function insertUser(db: Executor, row: typeof users.$inferInsert) {
  const [created] = await db.insert(users).values(row).returning();
  return created!;
}

export async function insertMember(db: Executor, row: typeof members.$inferInsert) {
  const [created] = await db.insert(members).values(row).returning();
  return created!;
}

/** A user's active memberships, oldest first. */
export async function activeMembersOfUser(db: Executor, userId: string) {
  return db
    .select()
    .from(members)
    .where(and(eq(members.userId, userId), eq(members.status, 'active')))
    .orderBy(members.createdAt);
}

export async function findActiveMember(db: Executor, workspaceId: string, userId: string) {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId), eq(members.status, 'active')))
    .limit(1);
  return row;
}

export async function insertSession(db: Executor, row: typeof sessions.$inferInsert) {
  const [created] = await db.insert(sessions).values(row).returning();
  return created!;
}

/** A live session with the member it acts as; undefined when expired or the membership is gone. */
export async function findLiveSession(db: Executor, tokenDigest: string, now: Date) {
  const [row] = await db
    .select({ session: sessions, member: members })
    .from(sessions)
    .innerJoin(
      members,
      and(
        eq(members.workspaceId, sessions.workspaceId),
        eq(members.userId, sessions.userId),
        eq(members.status, 'active'),
      ),
    )
    .where(and(eq(sessions.tokenDigest, tokenDigest), gt(sessions.expiresAt, now)))
    .limit(1);
  return row;
}

export async function updateSessionWorkspace(db: Executor, id: string, workspaceId: string) {
  await db.update(sessions).set({ workspaceId }).where(eq(sessions.id, id));
}

export async function deleteSession(db: Executor, id: string) {
  await db.delete(sessions).where(eq(sessions.id, id));
}

export async function updateUser(db: Executor, id: string, values: Partial<typeof users.$inferInsert>) {
  const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  return row;
}

/** Marks the address proved, keeping the first proof's time. */
export async function verifyUserEmail(db: Executor, id: string, now: Date) {
  await db
    .update(users)
    .set({ emailVerifiedAt: now })
    .where(and(eq(users.id, id), isNull(users.emailVerifiedAt)));
}

/** An address change reaches the user's memberships too: members rows carry the address they answer to. */
export async function updateMemberEmails(db: Executor, userId: string, email: string, now: Date) {
  await db.update(members).set({ email, updatedAt: now }).where(eq(members.userId, userId));
}

/** A user's live sessions, most recently used first. */
export async function liveSessionsOfUser(db: Executor, userId: string, now: Date) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
}

/** Deletes the user's sessions (all, or all but `keepId`); returns them, as their cached credentials must go. */
export async function deleteSessionsOfUser(db: Executor, userId: string, keepId?: string) {
  return db
    .delete(sessions)
    .where(keepId ? and(eq(sessions.userId, userId), ne(sessions.id, keepId)) : eq(sessions.userId, userId))
    .returning({ id: sessions.id, userAgent: sessions.userAgent });
}

/** Deletes one session of the user; undefined when it is not theirs or already gone. */
export async function deleteSessionOfUser(db: Executor, userId: string, id: string) {
  const [row] = await db
    .delete(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId)))
    .returning({ id: sessions.id, userAgent: sessions.userAgent });
  return row;
}

export async function touchSession(db: Executor, id: string, now: Date) {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
}

/** Whether a pending invitation in one of the user's workspaces is for `email` (an address change would collide). */
export async function workspaceHasAddress(db: Executor, userId: string, email: string) {
  const mine = db.select({ id: members.workspaceId }).from(members).where(eq(members.userId, userId));
  const [row] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.email, email), inArray(members.workspaceId, mine)))
    .limit(1);
  return Boolean(row);
}

export async function deleteExpiredSessions(db: Executor, now: Date) {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

const inviters = alias(members, 'inviters');
const inviterUsers = alias(users, 'inviter_users');

/** A pending invitation by the digest of its token, with who sent it. */
export async function findInvitation(db: Executor, tokenDigest: string) {
  const [row] = await db
    .select({
      member: members,
      inviter: { email: inviters.email, name: inviterUsers.name },
    })
    .from(members)
    .leftJoin(inviters, eq(inviters.id, members.invitedById))
    .leftJoin(inviterUsers, eq(inviterUsers.id, inviters.userId))
    .where(and(eq(members.inviteTokenDigest, tokenDigest), eq(members.status, 'invited')))
    .limit(1);
  return row;
}

/**
 * Uses an invitation: the one statement that turns it into an active membership, only while its token is
 * live, so two uses of one link cannot both succeed.
 */
export async function claimInvitation(db: Executor, tokenDigest: string, userId: string, now: Date) {
  const [row] = await db
    .update(members)
    .set({ userId, status: 'active', joinedAt: now, inviteTokenDigest: null, inviteExpiresAt: null, updatedAt: now })
    .where(
      and(eq(members.inviteTokenDigest, tokenDigest), eq(members.status, 'invited'), gt(members.inviteExpiresAt, now)),
    )
    .returning();
  return row;
}

/** Active memberships of the user with `email`, oldest first. */
export async function activeMembersByEmail(db: Executor, email: string) {
  return db
    .select({ member: members })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(users.email, email), eq(members.status, 'active')))
    .orderBy(members.createdAt)
    .then((rows) => rows.map((r) => r.member));
}
