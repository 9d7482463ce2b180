// How a client application comes to exist: registered by a workspace admin, or by itself through RFC 7591.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext, Scope } from '../auth/permissions';
import { newId } from '../core/ids';
import { newClientSecret } from './oauth-app-secrets';
import type { OAuthContext } from './oauth-context';
import * as repo from './oauth.repo';

/** What an admin fills in to register an app (web app, Settings → API → OAuth apps). */
export interface NewOAuthApp {
  name: string;
  redirectUris: string[];
  scopes: Scope[];
  isPublic: boolean;
}

/**
 * Registers an app of the caller's workspace, audited; a confidential one gets a client secret, whose
 * plaintext is returned only here.
 *
 * @example
 * ```ts
 * const { app, clientSecret } = await createApp(ctx, auth, { name: 'CRM', redirectUris, scopes: ['demos:read'], isPublic: false }, actor);
 * ```
 */
export async function createApp(ctx: Pick<OAuthContext, 'db' | 'clock' | 'digestKey'>, auth: AuthContext, input: NewOAuthApp, actor: Actor) {
  const { clock } = ctx;
  const secret = input.isPublic ? null : newClientSecret(ctx);
  const app = await ctx.db.transaction(async (tx) => {
    const created = await repo.insertApp(tx, {
      id: newId('oauthApp'),
      workspaceId: auth.workspaceId,
      name: input.name,
      redirectUris: input.redirectUris,
      scopes: input.scopes,
      isPublic: input.isPublic,
      secretDigest: secret?.digest ?? null,
      secretLastFour: secret?.lastFour ?? null,
      createdById: auth.memberId,
      createdAt: clock.now(),
    });
    await recordAudit(tx, clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'oauth_app.created',
      target: { type: 'oauth_app', id: created.id, label: created.name },
      changes: { redirect_uris: created.redirectUris, scopes: created.scopes, is_public: created.isPublic },
    });
    return created;
  });
  return { app, clientSecret: secret?.secret ?? null };
}

/**
 * RFC 7591 dynamic registration (OAUTH_DYNAMIC_REGISTRATION): a public client of no workspace, like the
 * built-in recorder client, that any member of any workspace may authorise. Unverified until the
 * operator says otherwise; nothing to audit in a workspace, so the log line is the record.
 *
 * @example
 * ```ts
 * const app = await registerClient(ctx, { name: 'Claude', redirectUris: ['https://claude.ai/api/mcp/auth_callback'], scopes });
 * ```
 */
export async function registerClient(ctx: Pick<OAuthContext, 'db' | 'clock'>, input: { name: string; redirectUris: string[]; scopes: Scope[] }) {
  return repo.insertApp(ctx.db, {
    id: newId('oauthApp'),
    workspaceId: null,
    name: input.name,
    redirectUris: input.redirectUris,
    scopes: input.scopes,
    isPublic: true,
    secretDigest: null,
    secretLastFour: null,
    createdById: null,
    createdAt: ctx.clock.now(),
  });
}
