// Webhook signing secrets: generating one, and rotating with a grace period for the old one.
import { randomBytes } from 'node:crypto';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { seal } from '../core/crypto';
import { notFound } from '../core/errors';
import { findOwnWebhook } from './webhooks.lookup';
import * as repo from './webhooks.repo';
import type { WebhooksDeps } from './webhooks.service';
import { secretHint } from './webhooks.signing';

/** A generated secret: 32 random bytes, in the `whsec_` + base64 look of Standard Webhooks secrets. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * A new signing secret (`given`, or generated). The previous one keeps signing beside it for the grace
 * period, so receivers can switch at leisure.
 */
export async function rotateWebhookSecret(deps: WebhooksDeps, auth: AuthContext, id: string, actor: Actor, given?: string) {
  const { clock } = deps;
  const { db } = deps.database;
  const current = await findOwnWebhook(db, auth, id);
  const secret = given ?? generateSecret();
  const now = clock.now();
  const previousSecretExpiresAt = new Date(now.getTime() + deps.rotationGraceMs);
  const row = await db.transaction(async (tx) => {
    const updated = await repo.updateWebhook(tx, id, {
      secretSealed: seal(deps.sealingKey, secret),
      secretHint: secretHint(secret),
      previousSecretSealed: current.secretSealed,
      previousSecretExpiresAt,
      updatedAt: now,
    });
    if (!updated) throw notFound('Webhook');
    await recordAudit(tx, clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'webhook.secret_rotated',
      target: { type: 'webhook', id, label: updated.url },
      changes: { generated: given === undefined, previous_valid_until: previousSecretExpiresAt.toISOString() },
    });
    return updated;
  });
  return { row, secret };
}
