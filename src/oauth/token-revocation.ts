// RFC 7009 token revocation by the client: a refresh token ends its authorisation, an access token only itself.
import { tags } from '../core/changes';
import { clientActor, type RequestOrigin } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import { type ClientCredentials, authenticateClient } from './oauth-clients';
import { type OAuthContext, secretDigest } from './oauth-context';
import * as repo from './oauth.repo';
import { revokeGrant } from './grant-revocation';

/**
 * Always succeeds for the client, whether or not the token existed (RFC 7009 §2.2); another client's
 * token is left alone.
 *
 * @example
 * ```ts
 * await revokeToken(ctx, { clientId }, 'dsr_…', originOf(request));
 * ```
 */
export async function revokeToken(
  ctx: Pick<OAuthContext, 'db' | 'clock' | 'credentials' | 'digestKey' | 'recorderRedirects'>,
  client: ClientCredentials,
  token: string,
  from: RequestOrigin,
): Promise<void> {
  const { db, clock } = ctx;
  const app = await authenticateClient(ctx, client);
  const found = await repo.findToken(db, secretDigest(ctx, token));
  if (!found || found.grant.appId !== app.id) return;
  const actor = clientActor(from, found.grant);
  if (found.token.kind === 'refresh') {
    await revokeGrant(ctx, found.grant.id, 'revoked by the client', actor);
  } else {
    await db.transaction(async (tx) => {
      await repo.revokeToken(tx, found.token.id, clock.now());
      await recordAudit(tx, clock, actor, {
        workspaceId: found.grant.workspaceId,
        action: 'grant.revoked',
        target: { type: 'oauth_grant', id: found.grant.id },
        changes: { app_id: found.grant.appId, user_id: found.grant.userId, reason: 'access token revoked by the client' },
      });
    });
    await ctx.credentials.invalidate(tags.credential(found.grant.id));
  }
}
