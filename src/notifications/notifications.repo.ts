import { and, asc, count, eq, gte, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import { members, users } from '../accounts/accounts.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import type { Executor } from '../db/client';
import { demos } from '../demos/demos.tables';
import { hubSessions, hubs } from '../hubs/hubs.tables';
import { shares } from '../shares/shares.tables';
import { views } from '../viewing/viewing.tables';
import { type NotificationMode, notificationSettings, notificationsSent } from './notifications.tables';

export type SettingsRow = typeof notificationSettings.$inferSelect;

export async function findSettings(db: Executor, memberId: string) {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.memberId, memberId)).limit(1);
  return row;
}

export async function saveSettings(db: Executor, row: typeof notificationSettings.$inferInsert) {
  const { memberId: _, ...rest } = row;
  const [saved] = await db
    .insert(notificationSettings)
    .values(row)
    .onConflictDoUpdate({ target: notificationSettings.memberId, set: rest })
    .returning();
  return saved!;
}

/** What a notice is about: a demo (`mine`: the member created it), or a hub (`mine`: the member created the hub). */
export type NoticeSubject = string | { hubId: string };

/**
 * The active members of a workspace who asked for `mode`, with their address, limited to those who hear
 * about `about` (every demo and hub, or the ones they created). Without `about`: all of them, for digests.
 */
export async function recipients(db: Executor, workspaceId: string, mode: NotificationMode, about?: NoticeSubject) {
  const creator =
    about === undefined
      ? undefined
      : typeof about === 'string'
        ? db.select({ id: demos.createdById }).from(demos).where(eq(demos.id, about))
        : db.select({ id: hubs.createdById }).from(hubs).where(eq(hubs.id, about.hubId));
  return db
    .select({
      memberId: members.id,
      email: users.email,
      name: users.name,
      scope: notificationSettings.scope,
      workspaceName: workspaces.name,
    })
    .from(notificationSettings)
    .innerJoin(members, eq(members.id, notificationSettings.memberId))
    .innerJoin(users, eq(users.id, members.userId))
    .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
    .where(
      and(
        eq(notificationSettings.workspaceId, workspaceId),
        eq(notificationSettings.mode, mode),
        eq(members.status, 'active'),
        creator ? or(eq(notificationSettings.scope, 'all'), inArray(members.id, creator)) : undefined,
      ),
    );
}

/** Whether `email` belongs to a member of the workspace: their own views are not news to anyone. */
export async function isMemberEmail(db: Executor, workspaceId: string, email: string) {
  return (await memberEmails(db, workspaceId)).includes(email.toLowerCase());
}

/** Records a message as sent; false when one went already (same member, day and subject). */
export async function claim(tx: Executor, memberId: string, day: string, subject: string) {
  const rows = await tx
    .insert(notificationsSent)
    .values({ memberId, day, subject })
    .onConflictDoNothing()
    .returning({ memberId: notificationsSent.memberId });
  return rows.length > 0;
}

export async function findShareWithDemo(db: Executor, shareId: string) {
  const [row] = await db
    .select({ share: { id: shares.id, name: shares.name }, demo: { id: demos.id, title: demos.title } })
    .from(shares)
    .innerJoin(demos, eq(demos.id, shares.demoId))
    .where(eq(shares.id, shareId))
    .limit(1);
  return row;
}

/** A hub's name and workspace, for its notice (undefined once the hub is deleted). */
export async function findHub(db: Executor, hubId: string) {
  const [row] = await db.select({ id: hubs.id, name: hubs.name, workspaceId: hubs.workspaceId }).from(hubs).where(eq(hubs.id, hubId)).limit(1);
  return row;
}

/** The views of one UTC day in a workspace (optionally of one member's demos), for a digest; the team's own left out as in analytics. */
export async function viewsOfDay(db: Executor, workspaceId: string, from: Date, to: Date, createdBy?: string) {
  return db
    .select({
      demoId: views.demoId,
      title: demos.title,
      email: views.viewerEmail,
      name: views.viewerName,
      completed: views.completed,
    })
    .from(views)
    .innerJoin(demos, eq(demos.id, views.demoId))
    .where(
      and(
        eq(views.workspaceId, workspaceId),
        gte(views.startedAt, from),
        lt(views.startedAt, to),
        eq(views.internal, false),
        createdBy ? eq(demos.createdById, createdBy) : undefined,
      ),
    );
}

/**
 * A workspace's hub visits opened in [from, to), per hub and per address given (null: none), members' own
 * (internal) visits left out: the digest leaves out those identified with a member's address too.
 */
export async function hubVisitsOfDay(db: Executor, workspaceId: string, from: Date, to: Date) {
  const rows = await db
    .select({ hubId: hubs.id, name: hubs.name, createdBy: hubs.createdById, email: hubSessions.viewerEmail, visits: count() })
    .from(hubs)
    .innerJoin(hubSessions, eq(hubSessions.hubId, hubs.id))
    .where(and(eq(hubs.workspaceId, workspaceId), eq(hubSessions.internal, false), gte(hubSessions.createdAt, from), lt(hubSessions.createdAt, to)))
    .groupBy(hubs.id, hubSessions.viewerEmail);
  return rows.map((r) => ({ ...r, visits: Number(r.visits) }));
}

/** The identifications of [from, to) on a workspace's hubs, oldest first, members' own visits left out. */
export async function hubIdentificationsOfDay(db: Executor, workspaceId: string, from: Date, to: Date) {
  return db
    .select({
      hubId: hubs.id,
      name: hubs.name,
      createdBy: hubs.createdById,
      email: sql<string>`${hubSessions.viewerEmail}`,
      visitorName: hubSessions.viewerName,
      values: hubSessions.values,
    })
    .from(hubs)
    .innerJoin(hubSessions, eq(hubSessions.hubId, hubs.id))
    .where(
      and(
        eq(hubs.workspaceId, workspaceId),
        eq(hubSessions.internal, false),
        isNotNull(hubSessions.viewerEmail),
        gte(hubSessions.identifiedAt, from),
        lt(hubSessions.identifiedAt, to),
      ),
    )
    .orderBy(asc(hubSessions.identifiedAt));
}

/** Of `domains`, those whose viewers first came before `before`: the others are new companies. */
export async function domainsSeenBefore(db: Executor, workspaceId: string, domains: string[], before: Date) {
  if (domains.length === 0) return new Set<string>();
  const domain = sql<string>`lower(split_part(${views.viewerEmail}, '@', 2))`;
  const rows = await db
    .selectDistinct({ domain })
    .from(views)
    .where(
      and(
        eq(views.workspaceId, workspaceId),
        isNotNull(views.viewerEmail),
        lt(views.startedAt, before),
        inArray(domain, domains),
      ),
    );
  return new Set(rows.map((r) => r.domain));
}

/** Workspaces where someone asked for a daily digest. */
export async function workspacesWithDigests(db: Executor) {
  const rows = await db
    .selectDistinct({ workspaceId: notificationSettings.workspaceId })
    .from(notificationSettings)
    .where(eq(notificationSettings.mode, 'daily'));
  return rows.map((r) => r.workspaceId);
}

/** Every address of the workspace's members, invited ones included: as invited, and as their account has it now. */
export async function memberEmails(db: Executor, workspaceId: string) {
  const rows = await db
    .select({ invited: members.email, current: users.email })
    .from(members)
    .leftJoin(users, eq(users.id, members.userId))
    .where(eq(members.workspaceId, workspaceId));
  return rows.flatMap((r) => (r.current ? [r.invited, r.current] : [r.invited]));
}

/** Forgets messages sent before `day`: they only guard against sending one twice on the same day. */
export async function pruneSent(db: Executor, before: string) {
  await db.delete(notificationsSent).where(lt(notificationsSent.day, before));
}
