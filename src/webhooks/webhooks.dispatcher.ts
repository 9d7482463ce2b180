import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { newId } from '../core/ids';
import { iso } from '../core/time';
import type { Db } from '../db/client';
import { events } from '../events/events.tables';
import { webhookDeliveries, webhooks } from './webhooks.tables';

/** The body of a delivery: the contract's `{event, timestamp, data}` plus the event `id` for de-duplication. */
export function deliveryBody(event: { id: string; kind: string; occurredAt: Date; data: unknown }): string {
  return JSON.stringify({ id: event.id, event: event.kind, timestamp: iso(event.occurredAt), data: event.data });
}

/**
 * Fans one batch of undispatched outbox events out to the active webhooks of their workspace that
 * subscribe to their kind, and marks them dispatched, in one transaction. The events are locked with
 * SKIP LOCKED, so several workers take disjoint batches; should a worker die mid-way, the transaction
 * rolls back and the events stay undispatched for the next one. Returns how many events it took.
 */
export async function dispatchBatch(db: Db, now: Date, maxAttempts: number, size = 100): Promise<number> {
  return db.transaction(async (tx) => {
    const batch = await tx
      .select()
      .from(events)
      .where(isNull(events.dispatchedAt))
      .orderBy(asc(events.createdAt))
      .limit(size)
      .for('update', { skipLocked: true });
    if (batch.length === 0) return 0;
    const workspaceIds = [...new Set(batch.map((e) => e.workspaceId))];
    const hooks = await tx
      .select({ id: webhooks.id, workspaceId: webhooks.workspaceId, events: webhooks.events, createdAt: webhooks.createdAt })
      .from(webhooks)
      .where(and(inArray(webhooks.workspaceId, workspaceIds), eq(webhooks.active, true)));
    const rows: Array<typeof webhookDeliveries.$inferInsert> = [];
    for (const event of batch) {
      let body: string | undefined;
      for (const hook of hooks) {
        // A webhook hears of what happened after it was created, not of a backlog that predates it.
        if (hook.workspaceId !== event.workspaceId || !hook.events.includes(event.kind) || hook.createdAt > event.createdAt) {
          continue;
        }
        body ??= deliveryBody(event);
        rows.push({
          id: newId('delivery'),
          webhookId: hook.id,
          workspaceId: event.workspaceId,
          eventId: event.id,
          eventKind: event.kind,
          body,
          status: 'pending',
          maxAttempts,
          nextAttemptAt: now,
          createdAt: now,
        });
      }
    }
    if (rows.length > 0) await tx.insert(webhookDeliveries).values(rows).onConflictDoNothing();
    await tx
      .update(events)
      .set({ dispatchedAt: now })
      .where(
        inArray(
          events.id,
          batch.map((e) => e.id),
        ),
      );
    return batch.length;
  });
}
