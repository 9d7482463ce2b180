// Deleting a registered app: its authorisations and tokens end with it.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { tags } from '../core/changes';
import type { OAuthContext } from './oauth-context';
import * as repo from './oauth.repo';
import { ownedApp } from './owned-app';

/**
 * Deleting an app ends every authorisation of it, and every token, at once.
 *
 * @example
 * ```ts
 * await removeApp(ctx, auth, 'oauthApp_01j…', actorOf(request));
 * ```
 */
export async function removeApp(ctx: Pick<OAuthContext, 'db' | 'clock' | 'credentials'>, auth: AuthContext, id: string, actor: Actor) {
  const app = await ownedApp(ctx, auth, id);
  const grants = await repo.grantIdsOfApp(ctx.db, app.id);
  await ctx.db.transaction(async (tx) => {
    await repo.deleteApp(tx, app.id);
    await recordAudit(tx, ctx.clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'oauth_app.deleted',
      target: { type: 'oauth_app', id: app.id, label: app.name },
      changes: { grants_ended: grants.length },
    });
  });
  await ctx.credentials.invalidate(...grants.map(tags.credential));
}
