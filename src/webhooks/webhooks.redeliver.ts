// Redelivering a delivery: the same bytes and webhook-id, as a fresh delivery.
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import { newId } from '../core/ids';
import { wakeDeliveryWorkers } from '../events/outbox';
import * as deliveries from './webhook-deliveries.repo';
import { findOwnWebhook, requireActive } from './webhooks.lookup';
import type { WebhooksDeps } from './webhooks.service';

/** A fresh delivery of the same bytes with the same webhook-id, so a receiver that already has it can tell. */
export async function redeliver(deps: WebhooksDeps, auth: AuthContext, id: string, deliveryId: string) {
  const { db } = deps.database;
  const hook = await findOwnWebhook(db, auth, id);
  requireActive(hook);
  const original = await deliveries.findDelivery(db, id, deliveryId);
  if (!original) throw notFound('Delivery');
  const now = deps.clock.now();
  return db.transaction(async (tx) => {
    const row = await deliveries.insertDelivery(tx, {
      id: newId('delivery'),
      webhookId: hook.id,
      workspaceId: auth.workspaceId,
      eventId: original.eventId,
      eventKind: original.eventKind,
      body: original.body,
      maxAttempts: deps.maxAttempts,
      nextAttemptAt: now,
      redeliveryOf: original.redeliveryOf ?? original.id,
      createdAt: now,
    });
    await wakeDeliveryWorkers(tx, 'delivery');
    return row;
  });
}
