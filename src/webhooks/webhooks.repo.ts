import { and, asc, count, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { members } from '../accounts/accounts.tables';
import type { Executor } from '../db/client';
import { webhooks } from './webhooks.tables';

export type WebhookRow = typeof webhooks.$inferSelect;

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

/**
 * Locks the webhook against its DELETE for the rest of the transaction. The DELETE locks it and then, by
 * cascade, its deliveries; recording an attempt takes the same order, so the two wait for each other instead
 * of deadlocking. FOR KEY SHARE, the weakest lock a DELETE waits for: concurrent attempts of one webhook do
 * not wait for each other (a FOR NO KEY UPDATE held over the whole transaction took webhook deliveries from
 * 577 to 358 a second, bench/webhooks.ts), only for the counters' UPDATE at its end, as before.
 * False: it is gone, with its deliveries.
 */
export async function lockWebhook(tx: Executor, id: string): Promise<boolean> {
  const rows = await tx.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.id, id)).for('key share');
  return rows.length > 0;
}

export async function deleteWebhook(db: Executor, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(webhooks)
    .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}

/** Active admins' e-mail addresses: who hears that a webhook was disabled. */
export async function adminEmails(db: Executor, workspaceId: string): Promise<string[]> {
  const rows = await db
    .select({ email: members.email })
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.role, 'admin'), eq(members.status, 'active')));
  return rows.map((r) => r.email);
}

/** The active webhooks of these workspaces, with what the fan-out matches events against. */
export async function activeWebhooksIn(tx: Executor, workspaceIds: string[]) {
  return tx
    .select({ id: webhooks.id, workspaceId: webhooks.workspaceId, events: webhooks.events, createdAt: webhooks.createdAt })
    .from(webhooks)
    .where(and(inArray(webhooks.workspaceId, workspaceIds), eq(webhooks.active, true)));
}

/**
 * A successful attempt: resets the failure count. Every success would otherwise write the one webhook
 * row, and all concurrent attempts of a webhook would queue on its lock: the row is touched only to
 * reset failures, or once a second to move `last_delivery_at`.
 */
export async function noteSuccess(tx: Executor, id: string, now: Date) {
  await tx
    .update(webhooks)
    .set({ lastDeliveryAt: now, consecutiveFailures: 0, failingSince: null })
    .where(
      and(
        eq(webhooks.id, id),
        or(
          gt(webhooks.consecutiveFailures, 0),
          isNotNull(webhooks.failingSince),
          isNull(webhooks.lastDeliveryAt),
          lt(webhooks.lastDeliveryAt, new Date(now.getTime() - 1_000)),
        ),
      ),
    );
}

/** A failed attempt: counts it and starts the failure clock if it was not running. Returns when it started. */
export async function noteFailure(tx: Executor, id: string, now: Date): Promise<Date | null> {
  const [counted] = await tx
    .update(webhooks)
    .set({
      lastDeliveryAt: now,
      consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1`,
      failingSince: sql`coalesce(${webhooks.failingSince}, ${now})`,
    })
    .where(eq(webhooks.id, id))
    .returning({ failingSince: webhooks.failingSince });
  return counted?.failingSince ? new Date(counted.failingSince) : null;
}

/**
 * Disables the webhook unless it is disabled already; returns it only when this call did it. The
 * condition on active makes one worker, and one e-mail, do the disabling.
 */
export async function disableWebhook(tx: Executor, id: string, reason: 'failing' | 'gone', now: Date) {
  const [off] = await tx
    .update(webhooks)
    .set({ active: false, disabledAt: now, disabledReason: reason, updatedAt: now })
    .where(and(eq(webhooks.id, id), eq(webhooks.active, true), isNull(webhooks.disabledAt)))
    .returning();
  return off;
}
