import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { members, sessions, users, workspaces } from './accounts.tables';

export type UserRow = typeof users.$inferSelect;
export type MemberRow = typeof members.$inferSelect;
export type WorkspaceRow = typeof workspaces.$inferSelect;

export async function findUserByEmail(db: Executor, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function findUserById(db: Executor, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function insertUser(db: Executor, row: typeof users.$inferInsert) {
  const [created] = await db.insert(users).values(row).returning();
  return created!;
}

export async function insertWorkspace(db: Executor, row: typeof workspaces.$inferInsert) {
  const [created] = await db.insert(workspaces).values(row).returning();
  return created!;
}

export async function findWorkspace(db: Executor, id: string) {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id)).limit(1);
  return row;
}

export async function findWorkspaceByName(db: Executor, name: string) {
  return db.select().from(workspaces).where(eq(workspaces.name, name));
}

export async function insertMember(db: Executor, row: typeof members.$inferInsert) {
  const [created] = await db.insert(members).values(row).returning();
  return created!;
}

/** The workspaces a user is an active member of, oldest first. */
export async function membershipsOfUser(db: Executor, userId: string) {
  return db
    .select({ member: members, workspace: workspaces })
    .from(members)
    .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
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

/** Turns the invitations sent to `email` into active memberships of `userId`. */
export async function acceptInvitations(db: Executor, userId: string, email: string, now: Date) {
  await db
    .update(members)
    .set({ userId, status: 'active', updatedAt: now })
    .where(and(eq(members.email, email), eq(members.status, 'invited'), isNull(members.userId)));
}

/** Active memberships of the user with `email`, oldest first, with their workspaces. */
export async function membershipsByEmail(db: Executor, email: string) {
  return db
    .select({ member: members, workspace: workspaces })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
    .where(and(eq(users.email, email), eq(members.status, 'active')))
    .orderBy(members.createdAt);
}
