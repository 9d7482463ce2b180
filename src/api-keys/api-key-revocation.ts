// Revoking a key: refused from the next request on, in every process.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { tags } from '../core/changes';
import { manageableKey } from './api-key-access';
import type { ApiKeysContext } from './api-keys-context';
import * as repo from './api-keys.repo';

/**
 * Revokes a key the caller may manage (their own, or any for admins), audited; the credential cache drops
 * it here and, through the bus, in the other processes.
 *
 * @example
 * ```ts
 * await revokeKey(ctx, auth, 'apiKey_01j…', actorOf(request));
 * ```
 */
export async function revokeKey(ctx: Pick<ApiKeysContext, 'db' | 'clock' | 'credentials'>, auth: AuthContext, id: string, actor: Actor) {
  const row = await manageableKey(ctx, auth, id);
  await ctx.db.transaction(async (tx) => {
    await repo.updateKey(tx, row.id, { revokedAt: ctx.clock.now() });
    await recordAudit(tx, ctx.clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'key.revoked',
      target: { type: 'api_key', id: row.id, label: row.name },
    });
  });
  await ctx.credentials.invalidate(tags.credential(row.id));
}
