// Client secrets of confidential apps: made here, stored as a keyed digest and the last four characters, rotated at once.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { randomBase62 } from '../core/crypto';
import { type OAuthContext, secretDigest } from './oauth-context';
import * as repo from './oauth.repo';
import { ownedApp } from './owned-app';

/** Client secrets start with this (API keys with dsk_, OAuth tokens with dsa_ and dsr_). */
export const CLIENT_SECRET_PREFIX = 'dss_';

/**
 * A new client secret: the plaintext to show once, and what is stored of it.
 *
 * @example
 * ```ts
 * const { secret, digest, lastFour } = newClientSecret(ctx); // secret: 'dss_…' (47 characters)
 * ```
 */
export function newClientSecret(ctx: Pick<OAuthContext, 'digestKey'>) {
  const secret = `${CLIENT_SECRET_PREFIX}${randomBase62(43)}`;
  return { secret, digest: secretDigest(ctx, secret), lastFour: secret.slice(-4) };
}

/**
 * A new secret replaces the old one at once; issued tokens stay valid. A public app has no secret: it is
 * returned unchanged with `clientSecret: null`.
 *
 * @example
 * ```ts
 * const { app, clientSecret } = await rotateClientSecret(ctx, auth, 'oauthApp_01j…', actorOf(request));
 * ```
 */
export async function rotateClientSecret(ctx: Pick<OAuthContext, 'db' | 'clock' | 'digestKey'>, auth: AuthContext, id: string, actor: Actor) {
  const app = await ownedApp(ctx, auth, id);
  if (app.isPublic) return { app, clientSecret: null };
  const secret = newClientSecret(ctx);
  const updated = await ctx.db.transaction(async (tx) => {
    const row = await repo.updateApp(tx, app.id, { secretDigest: secret.digest, secretLastFour: secret.lastFour });
    await recordAudit(tx, ctx.clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'oauth_app.secret_rotated',
      target: { type: 'oauth_app', id: app.id, label: app.name },
    });
    return row;
  });
  return { app: updated!, clientSecret: secret.secret };
}
