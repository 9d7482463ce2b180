// Deliveries and their attempts: the delivery queue (claim, retry schedule) and the delivery log, in one table pair.
import { and, asc, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import type { PageWindow } from '../core/pagination';
import { afterRow } from '../db/keyset';
import { type DeliveryStatus, webhookAttempts, webhookDeliveries, webhooks } from './webhooks.tables';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type NewDelivery = typeof webhookDeliveries.$inferInsert;
export type NewAttempt = typeof webhookAttempts.$inferInsert;

export async function insertDelivery(db: Executor, row: NewDelivery) {
  const [created] = await db.insert(webhookDeliveries).values(row).returning();
  return created!;
}

/** The fan-out of events: a delivery that exists already for its (webhook, event) is left as it is. */
export async function insertDeliveries(tx: Executor, rows: NewDelivery[]) {
  if (rows.length > 0) await tx.insert(webhookDeliveries).values(rows).onConflictDoNothing();
}

/**
 * A page of the webhook's deliveries, newest first, with the total of the filter in the same statement (a
 * subquery computed once), and only when the webhook is the workspace's: one statement for a page. An empty
 * answer says nothing of the webhook; the caller looks it up then (and counts, past the end).
 */
export async function listDeliveries(
  db: Executor,
  workspaceId: string,
  webhookId: string,
  status: DeliveryStatus | undefined,
  window: PageWindow,
) {
  const where = and(eq(webhookDeliveries.webhookId, webhookId), status ? eq(webhookDeliveries.status, status) : undefined);
  const own = sql`exists (select 1 from ${webhooks} w where w."id" = ${webhookId} and w."workspace_id" = ${workspaceId})`;
  const found = await db
    .select({ delivery: webhookDeliveries, total: sql<number>`(select count(*)::int from ${webhookDeliveries} where ${where})`.mapWith(Number) })
    .from(webhookDeliveries)
    .where(and(where, own, window.after ? afterRow(webhookDeliveries, webhookDeliveries.createdAt, webhookDeliveries.id, window.after, 'desc') : undefined))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(window.limit)
    .offset(window.offset);
  return { rows: found.map((r) => r.delivery), total: found[0]?.total ?? 0 };
}

export async function countDeliveries(db: Executor, webhookId: string, status: DeliveryStatus | undefined) {
  const where = and(eq(webhookDeliveries.webhookId, webhookId), status ? eq(webhookDeliveries.status, status) : undefined);
  const [total] = await db.select({ n: count() }).from(webhookDeliveries).where(where);
  return total?.n ?? 0;
}

export async function findDelivery(db: Executor, webhookId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.id, id)))
    .limit(1);
  return row;
}

/** Attempts of the given deliveries, grouped by delivery, oldest attempt first. */
export async function attemptsOf(db: Executor, deliveryIds: string[]): Promise<Map<string, AttemptRow[]>> {
  const byDelivery = new Map<string, AttemptRow[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(asc(webhookAttempts.attempt));
  for (const row of rows) {
    const list = byDelivery.get(row.deliveryId) ?? [];
    list.push(row);
    byDelivery.set(row.deliveryId, list);
  }
  return byDelivery;
}

export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventKind: string;
  body: string;
  attempt: number;
  maxAttempts: number;
  /** The previous holder's lease ran out: its attempt's outcome was never recorded. */
  takenOver: boolean;
}

/**
 * Claims up to `limit` due deliveries: pending ones whose time has come, and claims whose lease ran out
 * (their worker died). SKIP LOCKED lets workers claim side by side without waiting on each other, and
 * the attempt counter moves in the same statement, so one attempt number goes to one worker only.
 */
export async function claimDue(db: Executor, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
  const result = (await db.execute(sql`
    with due as (
      select id, status as previous_status from webhook_deliveries
      where (status = 'pending' and next_attempt_at <= ${now})
         or (status = 'delivering' and locked_until <= ${now})
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    )
    update webhook_deliveries d
    set status = 'delivering', attempts = d.attempts + 1, locked_until = ${leaseUntil}, last_attempt_at = ${now}
    from due
    where d.id = due.id
    returning d.id, d.webhook_id, d.event_id, d.event_kind, d.body, d.attempts, d.max_attempts, due.previous_status`)) as unknown as {
    rows: Record<string, unknown>[];
  };
  return result.rows.map((r) => ({
    id: r.id as string,
    webhookId: r.webhook_id as string,
    eventId: r.event_id as string,
    eventKind: r.event_kind as string,
    body: r.body as string,
    attempt: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    takenOver: r.previous_status === 'delivering',
  }));
}

/**
 * When the next delivery falls due, so an idle worker sleeps exactly until then: a pending one's next
 * attempt, or the end of a claim's lease (a worker that died, or lost the database while recording an
 * outcome, leaves its claim to be taken over then; no NOTIFY announces that).
 */
export async function nextDueAt(db: Executor): Promise<Date | null> {
  const [row] = await db
    .select({
      at: sql<Date | string | null>`min(case when ${webhookDeliveries.status} = 'pending' then ${webhookDeliveries.nextAttemptAt} else ${webhookDeliveries.lockedUntil} end)`,
    })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.status, ['pending', 'delivering']));
  return row?.at ? new Date(row.at) : null;
}

/** Logs an attempt once: the primary key (delivery, attempt) turns a second record of it into nothing. */
export async function insertAttempt(db: Executor, row: NewAttempt) {
  await db.insert(webhookAttempts).values(row).onConflictDoNothing();
}

/** Which attempt of which delivery a worker holds: only that holder may move the delivery on. */
export interface HeldAttempt {
  id: string;
  attempt: number;
}

export interface Settlement {
  status: 'succeeded' | 'failed' | 'pending';
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  completedAt: Date | null;
}

/**
 * Moves the delivery on after attempt `held.attempt`, if that attempt is still the one in progress; after a
 * lease takeover the newer attempt owns the row and this does nothing. True when it moved the delivery.
 */
export async function settleAttempt(tx: Executor, held: HeldAttempt, settlement: Settlement): Promise<boolean> {
  const moved = await tx
    .update(webhookDeliveries)
    .set({ ...settlement, lockedUntil: null })
    .where(
      and(
        eq(webhookDeliveries.id, held.id),
        eq(webhookDeliveries.attempts, held.attempt),
        eq(webhookDeliveries.status, 'delivering'),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return moved.length > 0;
}

/** Cancels a claimed delivery without sending it; the claimed attempt is handed back, since none was made. */
export async function cancelClaimed(db: Executor, held: HeldAttempt, now: Date, lastError: string) {
  await db
    .update(webhookDeliveries)
    .set({
      status: 'cancelled',
      attempts: sql`${webhookDeliveries.attempts} - 1`,
      lockedUntil: null,
      nextAttemptAt: null,
      completedAt: now,
      lastError,
    })
    .where(and(eq(webhookDeliveries.id, held.id), eq(webhookDeliveries.attempts, held.attempt)));
}

/** Fails a claimed delivery whose attempts are spent, leaving its counter at the last attempt allowed. */
export async function failClaimed(db: Executor, held: HeldAttempt, maxAttempts: number, now: Date, lastError: string) {
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError, attempts: maxAttempts, lockedUntil: null, nextAttemptAt: null, completedAt: now })
    .where(and(eq(webhookDeliveries.id, held.id), eq(webhookDeliveries.attempts, held.attempt)));
}

/** Finished deliveries created before `before`; their attempts go with them (cascade). */
export async function deleteFinishedBefore(db: Executor, before: Date) {
  await db
    .delete(webhookDeliveries)
    .where(
      and(lt(webhookDeliveries.createdAt, before), inArray(webhookDeliveries.status, ['succeeded', 'failed', 'cancelled'])),
    );
}
