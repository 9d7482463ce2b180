// Authorized apps: listing and revoking the OAuth grants (authorisations) of a user or a workspace.
import type { Actor } from '../audit/actor';
import { type AuthContext, roleAllows } from '../auth/permissions';
import { AppError, notFound } from '../core/errors';
import type { CredentialCache } from '../auth/credential-cache';
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';
import { revokeGrant } from './grant-revocation';
import * as repo from './oauth.repo';
import type { ReadRouting } from '../db/read-replica';

/** What the grants service is built from: the kernel's database, clock and credential cache. */
export interface OAuthGrantsDeps {
  database: Database;
  clock: Clock;
  credentials: CredentialCache;
  /** List pages read here: the replica when it is fit (db/read-replica.ts), else the primary. */
  reads?: Pick<ReadRouting, 'reader'>;
}

/**
 * Authorized apps: the OAuth authorisations a user gave (in any of their workspaces), and for admins every
 * member's in the workspace. Revoking one ends its tokens at once (the credential cache is told).
 *
 * @example
 * ```ts
 * const grants = createOAuthGrantsService(kernel);
 * const { rows, total } = await grants.list(auth, false, { limit: 20, offset: 0 });
 * await grants.revoke(auth, rows[0]!.grant.id, actorOf(request));
 * ```
 */
export function createOAuthGrantsService({ database, clock, credentials, reads }: OAuthGrantsDeps) {
  const { db } = database;

  /** The caller's own grants, or with `allMembers` (admins) every grant in the caller's workspace. */
  async function list(auth: AuthContext, allMembers: boolean, page: { limit: number; offset: number }) {
    if (allMembers && !roleAllows(auth.role, 'oauth_grants.manage_all')) {
      throw new AppError('forbidden', `Your role (${auth.role}) cannot list every member's authorisations: it requires admin`);
    }
    return repo.listGrants(reads?.reader(auth.workspaceId) ?? db, allMembers ? { workspaceId: auth.workspaceId } : { userId: auth.userId }, page);
  }

  /** The user who gave it, or an admin of its workspace, may revoke a grant; to anyone else it does not exist. */
  async function revoke(auth: AuthContext, id: string, actor: Actor) {
    const grant = await repo.findGrant(db, id);
    const own = grant?.userId === auth.userId;
    const asAdmin = grant?.workspaceId === auth.workspaceId && roleAllows(auth.role, 'oauth_grants.manage_all');
    if (!grant || grant.revokedAt || !(own || asAdmin)) throw notFound('Authorization');
    await revokeGrant({ db, clock, credentials }, grant.id, own ? 'revoked by the user' : 'revoked by an admin', actor);
  }

  return { list, revoke };
}

/** `services.oauth.oauthGrants`: the Authorized apps page's list and revoke. */
export type OAuthGrantsService = ReturnType<typeof createOAuthGrantsService>;
