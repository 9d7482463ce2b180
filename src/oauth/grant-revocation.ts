// Ending a whole authorisation: its tokens, an audit line, and the credential cache told at once.
import { tags } from '../core/changes';
import { type Actor, systemActor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { OAuthContext } from './oauth-context';
import * as repo from './oauth.repo';

/**
 * Revokes a grant and every token of it, audited as `actor`'s doing (the system's by default: a reused
 * code or refresh token). Revoking an already revoked grant does nothing.
 *
 * @example
 * ```ts
 * await revokeGrant(ctx, 'oauthGrant_01j…', 'revoked by the user', actorOf(request));
 * ```
 */
export async function revokeGrant(
  ctx: Pick<OAuthContext, 'db' | 'clock' | 'credentials'>,
  grantId: string,
  reason: string,
  actor: Actor = systemActor(),
) {
  const { clock } = ctx;
  await ctx.db.transaction(async (tx) => {
    const grant = await repo.revokeGrant(tx, grantId, clock.now(), reason);
    if (!grant) return;
    await recordAudit(tx, clock, actor, {
      workspaceId: grant.workspaceId,
      action: 'grant.revoked',
      target: { type: 'oauth_grant', id: grant.id },
      changes: { app_id: grant.appId, user_id: grant.userId, reason, scopes: grant.scopes },
    });
  });
  await ctx.credentials.invalidate(tags.credential(grantId));
}
