// A new access and refresh token pair for a grant, stored as digests; what every grant type ends with.
import { randomBase62 } from '../core/crypto';
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import { type OAuthContext, secretDigest } from './oauth-context';
import * as repo from './oauth.repo';

/** Access tokens start with this, so the bearer hook knows which resolver to ask. */
export const ACCESS_TOKEN_PREFIX = 'dsa_';
const REFRESH_TOKEN_PREFIX = 'dsr_';
/** An access token lives an hour; the client refreshes it. */
export const ACCESS_TOKEN_TTL_S = 3600;
const REFRESH_TOKEN_TTL_MS = 60 * 86_400_000;

/** The token endpoint's answer (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * Issues an access token (1 hour) and a refresh token (60 days, single use) for `grantId`, inside the
 * caller's transaction; only their digests are stored, so the answer holds the only plaintext copies.
 *
 * @example
 * ```ts
 * const pair = await ctx.db.transaction((tx) => issueTokens(ctx, tx, grant.id, grant.scopes));
 * ```
 */
export async function issueTokens(
  ctx: Pick<OAuthContext, 'clock' | 'digestKey'>,
  tx: Executor,
  grantId: string,
  scopes: string[],
): Promise<TokenResponse> {
  const now = ctx.clock.now();
  const access = `${ACCESS_TOKEN_PREFIX}${randomBase62(43)}`;
  const refresh = `${REFRESH_TOKEN_PREFIX}${randomBase62(43)}`;
  const common = { grantId, scopes, createdAt: now };
  await repo.insertToken(tx, {
    ...common,
    id: newId('oauthToken'),
    kind: 'access',
    digest: secretDigest(ctx, access),
    expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000),
  });
  await repo.insertToken(tx, {
    ...common,
    id: newId('oauthToken'),
    kind: 'refresh',
    digest: secretDigest(ctx, refresh),
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
  });
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_S, refresh_token: refresh, scope: scopes.join(' ') };
}
