// POST /v1/webhooks/:id/test: a webhook.test delivery to this webhook only.
import type { AuthContext } from '../auth/permissions';
import { newId } from '../core/ids';
import { emitEvent, markDispatched } from '../events/outbox';
import * as deliveries from './webhook-deliveries.repo';
import { deliveryBody } from './webhooks.dispatcher';
import { findOwnWebhook, requireActive } from './webhooks.lookup';
import type { WebhooksDeps } from './webhooks.service';

/**
 * Sends `webhook.test` to this webhook only, whatever it subscribes to. The event goes through the outbox
 * like any other, but is fanned out here, in its own transaction, rather than by the dispatcher.
 */
export async function sendTestEvent(deps: WebhooksDeps, auth: AuthContext, id: string) {
  const { clock } = deps;
  const { db } = deps.database;
  const hook = await findOwnWebhook(db, auth, id);
  requireActive(hook);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const data = { webhook_id: hook.id, message: 'This is a test event sent from Demoshare.' };
    const eventId = await emitEvent(tx, clock, { workspaceId: auth.workspaceId, kind: 'webhook.test', data, occurredAt: now });
    await markDispatched(tx, [eventId], now);
    return deliveries.insertDelivery(tx, {
      id: newId('delivery'),
      webhookId: hook.id,
      workspaceId: auth.workspaceId,
      eventId,
      eventKind: 'webhook.test',
      body: deliveryBody({ id: eventId, kind: 'webhook.test', occurredAt: now, data }),
      maxAttempts: deps.maxAttempts,
      nextAttemptAt: now,
      createdAt: now,
    });
  });
}
