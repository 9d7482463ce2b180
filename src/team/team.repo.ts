// Queries of the team domain: a workspace's members, on accounts' members and users tables (declared reads).
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { members, users } from '../accounts/accounts.tables';
import type { Executor } from '../db/client';
import { prepared } from '../db/prepared';

// Team works on accounts' members and users tables (declared in team.module.ts): a workspace's member list
// is the members table seen from the workspace, where accounts sees it from the user.

export type MemberRow = typeof members.$inferSelect;

/**
 * One page of members with the total in the same round trip (a window count); only a page past the end,
 * which has no row to carry the total, costs a second query.
 */
const membersPage = (db: Executor, name: string) =>
  db
    .select({ member: members, name: users.name, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(members)
    .leftJoin(users, eq(users.id, members.userId))
    .where(eq(members.workspaceId, sql.placeholder('workspaceId')))
    .orderBy(asc(members.createdAt), asc(members.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(name);

export async function listMembers(db: Executor, workspaceId: string, page: { limit: number; offset: number }) {
  const found = await prepared(db, 'team_members_page', membersPage).execute({ workspaceId, ...page });
  const rows = found.map(({ member, name }) => ({ member, name }));
  if (found[0]) return { rows, total: found[0].total };
  if (page.offset === 0) return { rows, total: 0 };
  const [total] = await db.select({ n: count() }).from(members).where(eq(members.workspaceId, workspaceId));
  return { rows, total: total?.n ?? 0 };
}

export async function findMember(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select({ member: members, name: users.name })
    .from(members)
    .leftJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.workspaceId, workspaceId), eq(members.id, id)))
    .limit(1);
  return row;
}

export async function findMemberByEmail(db: Executor, workspaceId: string, email: string) {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.email, email)))
    .limit(1);
  return row;
}

/** Locks the workspace's active admins, so that two demotions cannot both pass the last-admin check. */
export async function lockActiveAdmins(db: Executor, workspaceId: string) {
  const rows = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.role, 'admin'), eq(members.status, 'active')))
    .for('update');
  return rows.map((r) => r.id);
}

export async function updateMember(db: Executor, id: string, patch: Partial<typeof members.$inferInsert>) {
  const [row] = await db
    .update(members)
    .set({ ...patch, updatedAt: patch.updatedAt ?? sql`now()` })
    .where(eq(members.id, id))
    .returning();
  return row;
}

export async function deleteMember(db: Executor, id: string) {
  await db.delete(members).where(eq(members.id, id));
}

/** Updates a member only while still invited: a resend racing an accept leaves the joined member alone. */
export async function updatePendingMember(db: Executor, id: string, patch: Partial<typeof members.$inferInsert>) {
  const [row] = await db
    .update(members)
    .set(patch)
    .where(and(eq(members.id, id), eq(members.status, 'invited')))
    .returning();
  return row;
}

/** Deletes a member only while still invited, so a revoke racing an accept cannot remove who just joined. */
export async function deletePendingMember(db: Executor, id: string) {
  await db.delete(members).where(and(eq(members.id, id), eq(members.status, 'invited')));
}

/** An invitation, made by an admin: a members row waiting for someone to sign up or in with its address. */
export async function insertMember(tx: Executor, row: typeof members.$inferInsert) {
  const [created] = await tx.insert(members).values(row).returning();
  return created!;
}

/** Who sends an invitation e-mail: the inviting member of the workspace, with their name. */
export async function findInviter(db: Executor, workspaceId: string, inviterMemberId: string) {
  const [row] = await db
    .select({ email: members.email, name: users.name })
    .from(members)
    .leftJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.id, inviterMemberId), eq(members.workspaceId, workspaceId)))
    .limit(1);
  return row;
}
