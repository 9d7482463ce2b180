// The one rule for reaching a registered app from the API: it belongs to the caller's workspace, or it does not exist.
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import type { OAuthContext } from './oauth-context';
import * as repo from './oauth.repo';

/**
 * An app of the caller's workspace; another workspace's app, the recorder client or a dynamically
 * registered one (no workspace) is a 404.
 *
 * @example
 * ```ts
 * const app = await ownedApp(ctx, auth, 'oauthApp_01j…');
 * ```
 */
export async function ownedApp(ctx: Pick<OAuthContext, 'db'>, auth: AuthContext, id: string) {
  const app = await repo.findApp(ctx.db, id);
  if (!app || app.workspaceId !== auth.workspaceId) throw notFound('OAuth app');
  return app;
}
