// DELETE /v1/webhooks/:id.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import { findOwnWebhook } from './webhooks.lookup';
import * as repo from './webhooks.repo';
import type { WebhooksDeps } from './webhooks.service';

/** Deletes a webhook with its deliveries (by cascade), recording the kinds it was subscribed to. */
export async function deleteWebhook(deps: WebhooksDeps, auth: AuthContext, id: string, actor: Actor) {
  const { db } = deps.database;
  const current = await findOwnWebhook(db, auth, id);
  await db.transaction(async (tx) => {
    if (!(await repo.deleteWebhook(tx, auth.workspaceId, id))) throw notFound('Webhook');
    await recordAudit(tx, deps.clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'webhook.deleted',
      target: { type: 'webhook', id, label: current.url },
      changes: { events: current.events },
    });
  });
}
