// Slack destinations and messages (queries only), and what the alerts read of demos, links and members.
import { and, count, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { members, users } from '../accounts/accounts.tables';
import type { Executor } from '../db/client';
import { demos, demoVersions } from '../demos/demos.tables';
import { hubSessions, hubs } from '../hubs/hubs.tables';
import { shares } from '../shares/shares.tables';
import { views } from '../viewing/viewing.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { type SlackMessageStatus, slackDestinations, slackMessages } from './slack.tables';

export type DestinationRow = typeof slackDestinations.$inferSelect;
export type NewDestination = typeof slackDestinations.$inferInsert;
export type MessageRow = typeof slackMessages.$inferSelect;
export type NewMessage = typeof slackMessages.$inferInsert;

/** The workspace's destination (`memberId` null) or a member's own. */
export async function findDestination(db: Executor, workspaceId: string, memberId: string | null) {
  const [row] = await db
    .select()
    .from(slackDestinations)
    .where(and(eq(slackDestinations.workspaceId, workspaceId), memberId ? eq(slackDestinations.memberId, memberId) : isNull(slackDestinations.memberId)))
    .limit(1);
  return row;
}

export async function findDestinationById(db: Executor, id: string) {
  const [row] = await db.select().from(slackDestinations).where(eq(slackDestinations.id, id)).limit(1);
  return row;
}

export async function insertDestination(db: Executor, row: NewDestination) {
  const [created] = await db.insert(slackDestinations).values(row).returning();
  return created!;
}

export async function updateDestination(db: Executor, id: string, change: Partial<NewDestination>) {
  const [row] = await db.update(slackDestinations).set(change).where(eq(slackDestinations.id, id)).returning();
  return row;
}

/**
 * Locks the destination against its DELETE for the rest of the transaction. The DELETE locks it and then, by
 * cascade, its messages; whoever settles a message takes the same order, so the two wait for each other
 * instead of deadlocking. FOR KEY SHARE, as webhooks.repo.ts lockWebhook says why: settlements of one
 * destination do not wait for each other. False: it is gone, with its messages.
 */
export async function lockDestination(tx: Executor, id: string): Promise<boolean> {
  const rows = await tx.select({ id: slackDestinations.id }).from(slackDestinations).where(eq(slackDestinations.id, id)).for('key share');
  return rows.length > 0;
}

export async function deleteDestination(db: Executor, id: string) {
  await db.delete(slackDestinations).where(eq(slackDestinations.id, id));
}

/** The destinations that may receive alerts now: of these workspaces, not disabled. */
export function liveDestinationsIn(tx: Executor, workspaceIds: string[]) {
  return tx
    .select()
    .from(slackDestinations)
    .where(and(inArray(slackDestinations.workspaceId, workspaceIds), isNull(slackDestinations.disabledAt)));
}

/** Live destinations that asked for the daily digest, with their workspace's name. */
export function digestDestinations(db: Executor) {
  return db
    .select({ destination: slackDestinations, workspace: workspaces.name })
    .from(slackDestinations)
    .innerJoin(workspaces, eq(workspaces.id, slackDestinations.workspaceId))
    .where(and(isNull(slackDestinations.disabledAt), sql`'daily_digest' = any(${slackDestinations.alerts})`));
}

/** Demos named by a batch of events: title, creator and the step count of the newest version (null: never published). */
export async function demoFacts(tx: Executor, ids: string[]) {
  const rows = await tx.select({ id: demos.id, title: demos.title, createdById: demos.createdById }).from(demos).where(inArray(demos.id, ids));
  const versions = await tx
    .select({ demoId: demoVersions.demoId, number: demoVersions.number, stepCount: demoVersions.stepCount })
    .from(demoVersions)
    .where(inArray(demoVersions.demoId, ids));
  const newest = new Map<string, { number: number; stepCount: number }>();
  for (const v of versions) if ((newest.get(v.demoId)?.number ?? -1) < v.number) newest.set(v.demoId, v);
  return rows.map((r) => ({ ...r, stepCount: newest.get(r.id)?.stepCount ?? null }));
}

/** The names viewers gave, by view (a completion's event carries only the address). */
export async function viewerNames(tx: Executor, viewIds: string[]) {
  const rows = await tx.select({ id: views.id, name: views.viewerName }).from(views).where(inArray(views.id, viewIds));
  return new Map(rows.filter((r) => r.name).map((r) => [r.id, r.name!]));
}

/** Hubs named by a batch of events (a hub's `viewer.identified`): name and creator. */
export function hubFacts(tx: Executor, ids: string[]) {
  return tx.select({ id: hubs.id, name: hubs.name, createdById: hubs.createdById }).from(hubs).where(inArray(hubs.id, ids));
}

/**
 * Of these hub identifications, those made on a member's own (internal) visit, as `hub|identified_at|e-mail`.
 * The event does not carry the visit (its data is the webhook's payload): the session that identified is
 * found by its hub, address and the instant it identified, which the hubs domain writes to both.
 */
export async function internalHubVisits(tx: Executor, hubIds: string[], times: Date[]): Promise<Set<string>> {
  if (hubIds.length === 0 || times.length === 0) return new Set();
  const rows = await tx
    .select({ hubId: hubSessions.hubId, email: hubSessions.viewerEmail, at: hubSessions.identifiedAt })
    .from(hubSessions)
    .where(and(inArray(hubSessions.hubId, hubIds), eq(hubSessions.internal, true), inArray(hubSessions.identifiedAt, times)));
  return new Set(rows.map((r) => hubVisitKey(r.hubId, r.at?.toISOString() ?? '', r.email ?? '')));
}

/** The key internalHubVisits answers with. */
export const hubVisitKey = (hubId: string, identifiedAt: string, email: string) => `${hubId}|${identifiedAt}|${email.toLowerCase()}`;

export function linkFacts(tx: Executor, ids: string[]) {
  return tx.select({ id: shares.id, name: shares.name, variables: shares.variables }).from(shares).where(inArray(shares.id, ids));
}

export function workspaceNames(tx: Executor, ids: string[]) {
  return tx.select({ id: workspaces.id, name: workspaces.name }).from(workspaces).where(inArray(workspaces.id, ids));
}

/** Every address of the members of these workspaces (invited and current), lower-cased: their own views are not alerts. */
export async function memberEmailsIn(tx: Executor, workspaceIds: string[]): Promise<Set<string>> {
  const rows = await tx
    .select({ invited: members.email, current: users.email, workspaceId: members.workspaceId })
    .from(members)
    .leftJoin(users, eq(users.id, members.userId))
    .where(inArray(members.workspaceId, workspaceIds));
  const out = new Set<string>();
  for (const r of rows) {
    out.add(`${r.workspaceId}:${r.invited.toLowerCase()}`);
    if (r.current) out.add(`${r.workspaceId}:${r.current.toLowerCase()}`);
  }
  return out;
}

/** Alerts as they are made: one per (destination, subject), whatever replays the batch. */
export async function insertMessages(tx: Executor, rows: NewMessage[]) {
  if (rows.length === 0) return 0;
  const made = await tx.insert(slackMessages).values(rows).onConflictDoNothing().returning({ id: slackMessages.id });
  return made.length;
}

interface Page {
  limit: number;
  offset: number;
}

export async function listMessages(db: Executor, destinationId: string, status: SlackMessageStatus | undefined, page: Page) {
  const where = and(eq(slackMessages.destinationId, destinationId), status ? eq(slackMessages.status, status) : undefined);
  const rows = await db
    .select()
    .from(slackMessages)
    .where(where)
    .orderBy(desc(slackMessages.createdAt), desc(slackMessages.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(slackMessages).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findMessage(db: Executor, destinationId: string, id: string) {
  const [row] = await db
    .select()
    .from(slackMessages)
    .where(and(eq(slackMessages.destinationId, destinationId), eq(slackMessages.id, id)))
    .limit(1);
  return row;
}

/** A failed or cancelled message queued again with `more` attempts; undefined when it was not finished. */
export async function requeueMessage(db: Executor, id: string, more: number, now: Date) {
  const [row] = await db
    .update(slackMessages)
    .set({ status: 'pending', maxAttempts: sql`${slackMessages.attempts} + ${more}`, nextAttemptAt: now, completedAt: null })
    .where(and(eq(slackMessages.id, id), inArray(slackMessages.status, ['failed', 'cancelled'])))
    .returning();
  return row;
}

export interface ClaimedMessage {
  id: string;
  destinationId: string;
  body: string;
  attempt: number;
  maxAttempts: number;
}

/**
 * Claims up to `limit` due messages (pending ones whose time has come, and claims whose lease ran out),
 * moving the attempt counter in the same statement: one attempt number goes to one worker only.
 */
export async function claimDue(db: Executor, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMessage[]> {
  const result = (await db.execute(sql`
    with due as (
      select id from ${slackMessages}
      where (status = 'pending' and next_attempt_at <= ${now})
         or (status = 'sending' and locked_until <= ${now})
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    )
    update ${slackMessages} m
    set status = 'sending', attempts = m.attempts + 1, locked_until = ${leaseUntil}, last_attempt_at = ${now}
    from due
    where m.id = due.id
    returning m.id, m.destination_id, m.body, m.attempts, m.max_attempts`)) as unknown as { rows: Record<string, unknown>[] };
  return result.rows.map((r) => ({
    id: r.id as string,
    destinationId: r.destination_id as string,
    body: r.body as string,
    attempt: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
  }));
}

/** When the next message falls due (a pending one's attempt, or a claim's lease), so an idle worker sleeps until then. */
export async function nextDueAt(db: Executor): Promise<Date | null> {
  const [row] = await db
    .select({
      at: sql<Date | string | null>`min(case when ${slackMessages.status} = 'pending' then ${slackMessages.nextAttemptAt} else ${slackMessages.lockedUntil} end)`,
    })
    .from(slackMessages)
    .where(inArray(slackMessages.status, ['pending', 'sending']));
  return row?.at ? new Date(row.at) : null;
}

export interface Settlement {
  status: 'sent' | 'failed' | 'pending' | 'cancelled';
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  completedAt: Date | null;
}

/** Moves the message on after attempt `attempt`, if that attempt still holds it. True when it did. */
export async function settle(tx: Executor, held: { id: string; attempt: number }, settlement: Settlement): Promise<boolean> {
  const moved = await tx
    .update(slackMessages)
    .set({ ...settlement, lockedUntil: null })
    .where(and(eq(slackMessages.id, held.id), eq(slackMessages.attempts, held.attempt), eq(slackMessages.status, 'sending')))
    .returning({ id: slackMessages.id });
  return moved.length > 0;
}

/** A dead URL: what was still waiting for it will not be sent. */
export async function cancelWaiting(tx: Executor, destinationId: string, now: Date, reason: string) {
  await tx
    .update(slackMessages)
    .set({ status: 'cancelled', nextAttemptAt: null, completedAt: now, lastError: reason })
    .where(and(eq(slackMessages.destinationId, destinationId), eq(slackMessages.status, 'pending')));
}

/** Finished messages created before `before`. */
export async function deleteFinishedBefore(db: Executor, before: Date) {
  await db
    .delete(slackMessages)
    .where(and(lt(slackMessages.createdAt, before), inArray(slackMessages.status, ['sent', 'failed', 'cancelled'])));
}

/** Who hears that a destination stopped: its member for a personal one, the workspace's active admins otherwise. */
export async function alertOwners(db: Executor, destination: Pick<DestinationRow, 'workspaceId' | 'memberId'>): Promise<string[]> {
  const rows = await db
    .select({ email: members.email })
    .from(members)
    .where(
      destination.memberId
        ? and(eq(members.id, destination.memberId), eq(members.status, 'active'))
        : and(eq(members.workspaceId, destination.workspaceId), eq(members.role, 'admin'), eq(members.status, 'active')),
    );
  return rows.map((r) => r.email);
}

/** "Ada Lovelace (ada@example.com)", or the address alone. */
export async function memberLabel(db: Executor, memberId: string) {
  const [row] = await db
    .select({ email: members.email, name: users.name, current: users.email })
    .from(members)
    .leftJoin(users, eq(users.id, members.userId))
    .where(eq(members.id, memberId))
    .limit(1);
  if (!row) return undefined;
  const email = row.current ?? row.email;
  return row.name ? `${row.name} (${email})` : email;
}
