// The instance operator's word on an app (`demoshare oauth-apps verify|unverify`), which the consent page shows.
import { systemActor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import { notFound } from '../core/errors';
import type { OAuthContext } from './oauth-context';
import * as repo from './oauth.repo';

/**
 * The instance operator vouches for an app (or withdraws it): `demoshare oauth-apps verify <client_id>`.
 * Any workspace may authorise any app, so this is what the consent page offers users to judge a stranger's
 * app by. Recorded in the owner workspace's audit log, as the system's doing.
 *
 * @example
 * ```ts
 * const app = await setVerified(ctx, 'oauthApp_01j…', true);
 * ```
 */
export async function setVerified(ctx: Pick<OAuthContext, 'db' | 'clock'>, clientId: string, verified: boolean) {
  const { db, clock } = ctx;
  const app = await repo.findApp(db, clientId);
  if (!app) throw notFound('OAuth app');
  return db.transaction(async (tx) => {
    const row = await repo.updateApp(tx, app.id, { verified });
    if (app.workspaceId && app.verified !== verified) {
      await recordAudit(tx, clock, systemActor(), {
        workspaceId: app.workspaceId,
        action: verified ? 'oauth_app.verified' : 'oauth_app.unverified',
        target: { type: 'oauth_app', id: app.id, label: app.name },
      });
    }
    return row!;
  });
}
