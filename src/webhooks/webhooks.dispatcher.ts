// The fan-out step: outbox events become one pending delivery per subscribed webhook.
import { newId } from '../core/ids';
import { iso } from '../core/time';
import type { Db } from '../db/client';
import { markDispatched, type OutboxConsumers, takeUndispatched } from '../events/outbox';
import { insertDeliveries, type NewDelivery } from './webhook-deliveries.repo';
import { activeWebhooksIn } from './webhooks.repo';

/** The body of a delivery: the contract's `{event, timestamp, data}` plus the event `id` for de-duplication. */
export function deliveryBody(event: { id: string; kind: string; occurredAt: Date; data: unknown }): string {
  return JSON.stringify({ id: event.id, event: event.kind, timestamp: iso(event.occurredAt), data: event.data });
}

/**
 * Fans one batch of undispatched outbox events out to the active webhooks of their workspace that
 * subscribe to their kind, and marks them dispatched, in one transaction. The events are locked with
 * SKIP LOCKED, so several workers take disjoint batches; should a worker die mid-way, the transaction
 * rolls back and the events stay undispatched for the next one. The other consumers of the outbox (Slack,
 * CRM) read the same batch in the same transaction. Returns how many events it took.
 */
export async function dispatchBatch(
  db: Db,
  now: Date,
  maxAttempts: number,
  consumers?: OutboxConsumers,
  size = 100,
): Promise<number> {
  return db.transaction(async (tx) => {
    const batch = await takeUndispatched(tx, size);
    if (batch.length === 0) return 0;
    const workspaceIds = [...new Set(batch.map((e) => e.workspaceId))];
    const hooks = await activeWebhooksIn(tx, workspaceIds);
    const rows: NewDelivery[] = [];
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
    await insertDeliveries(tx, rows);
    await consumers?.consume(tx, batch, now);
    await markDispatched(
      tx,
      batch.map((e) => e.id),
      now,
    );
    return batch.length;
  });
}
