// PATCH /v1/webhooks/:id: changing a webhook's address, kinds or state.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import type { EventKind } from '../events/event-kinds';
import { findOwnWebhook } from './webhooks.lookup';
import * as repo from './webhooks.repo';
import type { WebhooksDeps } from './webhooks.service';

/** What PATCH /v1/webhooks/:id may change; the secret has its own verb (webhooks.rotate-secret.ts). */
export interface WebhookChange {
  url?: string;
  events?: EventKind[];
  active?: boolean;
}

/** Before and after of what an admin can change, for the audit line; the secret is not among them. */
function webhookChanges(before: repo.WebhookRow, after: repo.WebhookRow) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  if (before.url !== after.url) changes.url = { from: before.url, to: after.url };
  if (before.events.join(',') !== after.events.join(',')) changes.events = { from: before.events, to: after.events };
  if (before.active !== after.active) changes.active = { from: before.active, to: after.active };
  return changes;
}

/** Changes a webhook's address, kinds or state; a new address is checked by the SSRF guard first. */
export async function updateWebhook(deps: WebhooksDeps, auth: AuthContext, id: string, input: WebhookChange, actor: Actor) {
  const { clock } = deps;
  const { db } = deps.database;
  const current = await findOwnWebhook(db, auth, id);
  const now = clock.now();
  const patch: Parameters<typeof repo.updateWebhook>[2] = { updatedAt: now };
  if (input.url !== undefined) patch.url = (await deps.net.check(input.url)).toString();
  if (input.events !== undefined) patch.events = input.events;
  if (input.active === true && !current.active) {
    // Re-enabling starts the failure clock afresh, or the next failure would disable it again at once.
    Object.assign(patch, { active: true, disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null });
  } else if (input.active === false && current.active) {
    Object.assign(patch, { active: false, disabledAt: now, disabledReason: 'manual' });
  }
  return db.transaction(async (tx) => {
    const updated = await repo.updateWebhook(tx, id, patch);
    if (!updated) throw notFound('Webhook');
    await recordAudit(tx, clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'webhook.changed',
      target: { type: 'webhook', id, label: updated.url },
      changes: webhookChanges(current, updated),
    });
    return updated;
  });
}
