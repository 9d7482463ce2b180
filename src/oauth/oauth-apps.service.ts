import type { Actor } from '../audit/actor';
import type { CredentialCache } from '../auth/credential-cache';
import type { AuthContext, Scope } from '../auth/permissions';
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';
import { createApp, type NewOAuthApp, registerClient } from './oauth-app-registration';
import { removeApp } from './oauth-app-removal';
import { rotateClientSecret } from './oauth-app-secrets';
import { setVerified } from './oauth-app-verification';
import * as repo from './oauth.repo';
import type { ReadRouting } from '../db/read-replica';

/** What the OAuth apps service is built from (the kernel, and the key that digests client secrets). */
export interface OAuthAppsDeps {
  database: Database;
  clock: Clock;
  credentials: CredentialCache;
  digestKey: Buffer;
  /** List pages read here: the replica when it is fit (db/read-replica.ts), else the primary. */
  reads?: Pick<ReadRouting, 'reader'>;
}

/**
 * Registration of client applications by workspace admins (web app, Settings → API → OAuth apps), by the
 * clients themselves (RFC 7591), and the operator's verification. Each verb is a function of its own file:
 * oauth-app-registration.ts (create, register), oauth-app-secrets.ts (rotateSecret), oauth-app-removal.ts
 * (remove), oauth-app-verification.ts (setVerified).
 *
 * @example
 * ```ts
 * const oauthApps = createOAuthAppsService({ ...kernel, digestKey: kernel.secrets.keyDigest });
 * const { app, clientSecret } = await oauthApps.create(auth, { name: 'CRM', redirectUris, scopes, isPublic: false }, actor);
 * ```
 */
export function createOAuthAppsService({ database, clock, credentials, digestKey, reads }: OAuthAppsDeps) {
  const ctx = { db: database.db, clock, credentials, digestKey };
  return {
    create: (auth: AuthContext, input: NewOAuthApp, actor: Actor) => createApp(ctx, auth, input, actor),
    list: (auth: AuthContext, page: { limit: number; offset: number }) => repo.listApps(reads?.reader(auth.workspaceId) ?? ctx.db, auth.workspaceId, page),
    rotateSecret: (auth: AuthContext, id: string, actor: Actor) => rotateClientSecret(ctx, auth, id, actor),
    remove: (auth: AuthContext, id: string, actor: Actor) => removeApp(ctx, auth, id, actor),
    setVerified: (clientId: string, verified: boolean) => setVerified(ctx, clientId, verified),
    register: (input: { name: string; redirectUris: string[]; scopes: Scope[] }) => registerClient(ctx, input),
  };
}

/** `services.oauth.oauthApps`. */
export type OAuthAppsService = ReturnType<typeof createOAuthAppsService>;
