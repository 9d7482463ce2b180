// Rotating a key: a replacement with the same name, scopes and owner; the old one keeps working for the grace period.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext, Scope } from '../auth/permissions';
import { tags } from '../core/changes';
import { AppError } from '../core/errors';
import { ownKey } from './api-key-access';
import { issueKey } from './api-key-issuing';
import type { ApiKeysContext } from './api-keys-context';
import * as repo from './api-keys.repo';

/**
 * Issues a replacement with the same name, scopes and owner, for the owner only. The old key keeps working
 * for the grace period (so deployments can switch over) and then expires.
 *
 * @example
 * ```ts
 * const { row, key, previous } = await rotateKey(ctx, auth, 'apiKey_01j…', actorOf(request));
 * // previous.expiresAt: now + KEY_ROTATION_GRACE, or the old key's own expiry if sooner
 * ```
 */
export async function rotateKey(ctx: ApiKeysContext, auth: AuthContext, id: string, actor: Actor, graceMs = ctx.rotationGraceMs) {
  const old = await ownKey(ctx, auth, id);
  const now = ctx.clock.now();
  if (old.expiresAt && old.expiresAt <= now) throw new AppError('conflict', 'This key has expired: create a new one');
  // A second rotation would leave two live successors of one key; rotate the replacement instead.
  if (old.replacedById) throw new AppError('conflict', 'This key has already been rotated: rotate its replacement');
  const graceEnd = new Date(now.getTime() + graceMs);
  const expiresAt = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
  const fresh = await ctx.db.transaction(async (tx) => {
    const issued = await issueKey(
      ctx,
      auth.workspaceId,
      old.memberId,
      {
        name: old.name,
        scopes: old.scopes as Scope[],
        expiresAt: old.expiresAt,
      },
      tx,
    );
    await repo.updateKey(tx, old.id, { expiresAt, replacedById: issued.row.id });
    await recordAudit(tx, ctx.clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'key.rotated',
      target: { type: 'api_key', id: old.id, label: old.name },
      changes: { replaced_by: issued.row.id, old_key_expires_at: expiresAt.toISOString() },
    });
    return issued;
  });
  await ctx.credentials.invalidate(tags.credential(old.id));
  return { ...fresh, previous: { id: old.id, expiresAt } };
}

