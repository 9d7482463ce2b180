// What every step of the OAuth flows is given: the service's dependencies, plus what is computed once from them.
import type { AccountsReader } from '../accounts/accounts.reader';
import type { CredentialCache } from '../auth/credential-cache';
import type { Clock } from '../core/clock';
import { hmacHex } from '../core/crypto';
import type { Database } from '../db/client';

/**
 * The OAuth token service's dependencies, as `oauth.module.ts` builds them from the kernel.
 *
 * @example
 * ```ts
 * createOAuthTokensService({ ...kernel, digestKey: kernel.secrets.keyDigest, sealingKey: kernel.secrets.sealing, members: accounts.reader });
 * ```
 */
export interface OAuthTokensDeps {
  database: Database;
  clock: Clock;
  credentials: CredentialCache;
  digestKey: Buffer;
  /** Seals the pair a refresh issued, kept on the used refresh token for the grace window. */
  sealingKey: Buffer;
  config: { RECORDER_EXTENSION_IDS: string[]; OAUTH_REFRESH_GRACE: number; APP_URL: string; API_URL?: string };
  /** Who is a member where (the granting member, the consent page's workspaces): the accounts module's reader. */
  members: Pick<AccountsReader, 'findActiveMember' | 'membershipsOfUser'>;
}

/**
 * The context each step function takes as its first argument (each names the part it uses with `Pick`):
 * the flows call each other directly, so "go to definition" lands on the code, not on an interface.
 */
export interface OAuthContext extends Omit<OAuthTokensDeps, 'database'> {
  db: Database['db'];
  /** The redirect addresses of the built-in recorder client that this instance trusts. */
  recorderRedirects: string[];
  /** RFC 8707 resource indicators this server answers to: the API and its /mcp endpoint. */
  resources: string[];
}

/** Codes, tokens and client secrets are stored only as this keyed digest. */
export const secretDigest = (ctx: Pick<OAuthContext, 'digestKey'>, secret: string) => hmacHex(ctx.digestKey, secret);
