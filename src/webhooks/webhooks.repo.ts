import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { members } from '../accounts/accounts.tables';
import type { Executor } from '../db/client';
import { type DeliveryStatus, webhookAttempts, webhookDeliveries, webhooks } from './webhooks.tables';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

interface Page {
  limit: number;
  offset: number;
}

export async function insertWebhook(db: Executor, row: typeof webhooks.$inferInsert) {
  const [created] = await db.insert(webhooks).values(row).returning();
  return created!;
}

export async function findWebhook(db: Executor, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id)))
    .limit(1);
  return row;
}

export async function findWebhookById(db: Executor, id: string) {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id)).limit(1);
  return row;
}

export async function listWebhooks(db: Executor, workspaceId: string, page: Page) {
  const where = eq(webhooks.workspaceId, workspaceId);
  const rows = await db
    .select()
    .from(webhooks)
    .where(where)
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(webhooks).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function updateWebhook(db: Executor, id: string, patch: Partial<typeof webhooks.$inferInsert>) {
  const [row] = await db.update(webhooks).set(patch).where(eq(webhooks.id, id)).returning();
  return row;
}

export async function deleteWebhook(db: Executor, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(webhooks)
    .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}

export async function insertDelivery(db: Executor, row: typeof webhookDeliveries.$inferInsert) {
  const [created] = await db.insert(webhookDeliveries).values(row).returning();
  return created!;
}

export async function listDeliveries(db: Executor, webhookId: string, status: DeliveryStatus | undefined, page: Page) {
  const where = and(eq(webhookDeliveries.webhookId, webhookId), status ? eq(webhookDeliveries.status, status) : undefined);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(webhookDeliveries).where(where);
  return { rows, total: total?.n ?? 0 };
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

/** Active admins' e-mail addresses: who hears that a webhook was disabled. */
export async function adminEmails(db: Executor, workspaceId: string): Promise<string[]> {
  const rows = await db
    .select({ email: members.email })
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.role, 'admin'), eq(members.status, 'active')));
  return rows.map((r) => r.email);
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

/** When the next pending delivery falls due, so an idle worker sleeps exactly until then. */
export async function nextDueAt(db: Executor): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | string | null>`min(${webhookDeliveries.nextAttemptAt})` })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, 'pending'));
  return row?.at ? new Date(row.at) : null;
}
