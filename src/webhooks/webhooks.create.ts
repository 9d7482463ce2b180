// POST /v1/webhooks: subscribing a URL to event kinds.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { seal } from '../core/crypto';
import { newId } from '../core/ids';
import type { EventKind } from '../events/event-kinds';
import * as repo from './webhooks.repo';
import { generateSecret } from './webhooks.rotate-secret';
import type { WebhooksDeps } from './webhooks.service';
import { secretHint } from './webhooks.signing';

/** What POST /v1/webhooks takes; a secret left out is generated. */
export interface NewWebhook {
  url: string;
  events: EventKind[];
  secret?: string;
}

/**
 * Subscribes a URL to event kinds. The address is resolved and checked by the SSRF guard now, and again at
 * every delivery. Answers the row and the secret in clear, which is never shown again.
 */
export async function createWebhook(deps: WebhooksDeps, auth: AuthContext, input: NewWebhook, actor: Actor) {
  const { clock } = deps;
  const url = (await deps.net.check(input.url)).toString();
  const secret = input.secret ?? generateSecret();
  const now = clock.now();
  const row = await deps.database.db.transaction(async (tx) => {
    const created = await repo.insertWebhook(tx, {
      id: newId('webhook'),
      workspaceId: auth.workspaceId,
      url,
      events: input.events,
      secretSealed: seal(deps.sealingKey, secret),
      secretHint: secretHint(secret),
      createdById: auth.memberId,
      createdAt: now,
      updatedAt: now,
    });
    await recordAudit(tx, clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'webhook.created',
      target: { type: 'webhook', id: created.id, label: url },
      changes: { url, events: created.events },
    });
    return created;
  });
  return { row, secret };
}
