// grant_type=refresh_token: rotation (each refresh token is used once), a grace window for racing requests, reuse revokes the grant.
import { seal, unseal } from '../core/crypto';
import { type ClientCredentials, authenticateClient } from './oauth-clients';
import { type OAuthContext, secretDigest } from './oauth-context';
import { OAuthError } from './oauth-error';
import * as repo from './oauth.repo';
import { revokeGrant } from './grant-revocation';
import { checkResource, sameResource } from './resource-indicator';
import { issueTokens, type TokenResponse } from './token-issuing';

/** The token request's fields for this grant type. */
export interface RefreshRequest {
  refreshToken: string;
  /** A narrower set of the granted scopes, space-separated. */
  scope?: string;
  resource?: string;
}

type RefreshContext = Pick<
  OAuthContext,
  'db' | 'clock' | 'credentials' | 'digestKey' | 'sealingKey' | 'config' | 'recorderRedirects' | 'resources'
>;

/**
 * The pair a refresh token already bought, when it is presented again within OAUTH_REFRESH_GRACE of its
 * use (two requests of one client racing, RFC 9700 §4.14.2): the same pair, not a second one. Null after
 * the window, or when nothing was kept: the caller then treats the reuse as theft.
 */
function replayWithinGrace(
  ctx: Pick<OAuthContext, 'sealingKey' | 'config'>,
  token: { usedAt: Date | null; revokedAt: Date | null; successorSealed: string | null },
  now: Date,
) {
  if (!token.usedAt || token.revokedAt || !token.successorSealed) return null;
  const elapsed = now.getTime() - token.usedAt.getTime();
  if (elapsed > ctx.config.OAUTH_REFRESH_GRACE) return null;
  const pair = JSON.parse(unseal(ctx.sealingKey, token.successorSealed)) as TokenResponse;
  return { ...pair, expires_in: Math.max(0, pair.expires_in - Math.floor(elapsed / 1000)) };
}

async function reused(ctx: RefreshContext, grantId: string): Promise<never> {
  // Rotation means a refresh token is used once; a second use means it leaked: end the whole grant.
  await revokeGrant(ctx, grantId, 'refresh token reused');
  throw new OAuthError('invalid_grant', 'This refresh token has already been used; the authorisation is revoked');
}

/** The scopes of the new pair: the token's, or a narrower set the client asked for. */
function narrowedScopes(granted: string[], scope: string | undefined) {
  if (scope === undefined) return granted;
  const asked = scope.split(' ').filter(Boolean);
  const extra = asked.filter((s) => !granted.includes(s));
  if (asked.length === 0 || extra.length > 0) {
    throw new OAuthError('invalid_scope', `A refresh can only narrow the scopes${extra.length ? `: ${extra.join(' ')} was not granted` : ''}`);
  }
  return asked;
}

/**
 * Trades a refresh token for a new pair and spends it. A concurrent refresh with the same token gets the
 * same pair; a later reuse revokes the whole authorisation.
 *
 * @example
 * ```ts
 * const tokens = await refreshTokens(ctx, { clientId }, { refreshToken: 'dsr_…', scope: 'demos:read' });
 * ```
 */
export async function refreshTokens(ctx: RefreshContext, client: ClientCredentials, input: RefreshRequest): Promise<TokenResponse> {
  const app = await authenticateClient(ctx, client);
  checkResource(ctx, input.resource);
  const { db, clock } = ctx;
  const now = clock.now();
  const tokenDigest = secretDigest(ctx, input.refreshToken);
  const found = await repo.findToken(db, tokenDigest);
  if (found?.token.kind !== 'refresh' || found.grant.appId !== app.id) {
    throw new OAuthError('invalid_grant', 'Unknown refresh token');
  }
  if (found.grant.revokedAt) throw new OAuthError('invalid_grant', 'The authorisation has been revoked');
  sameResource(found.grant, input.resource);
  if (found.token.usedAt || found.token.revokedAt) return replayWithinGrace(ctx, found.token, now) ?? reused(ctx, found.grant.id);
  if (found.token.expiresAt <= now) throw new OAuthError('invalid_grant', 'This refresh token has expired');
  if (found.member.status !== 'active') throw new OAuthError('invalid_grant', 'The authorisation has been revoked');
  const scopes = narrowedScopes(found.token.scopes, input.scope);
  const result = await db.transaction(async (tx) => {
    // A concurrent refresh with the same token waits here on the row until this one commits.
    if (!(await repo.useRefreshToken(tx, found.token.id, now))) return null;
    const pair = await issueTokens(ctx, tx, found.grant.id, scopes);
    const graceEnded = new Date(now.getTime() - ctx.config.OAUTH_REFRESH_GRACE);
    await repo.recordSuccessor(tx, found.token.id, found.grant.id, seal(ctx.sealingKey, JSON.stringify(pair)), graceEnded);
    return pair;
  });
  if (result) return result;
  // Lost the race to a concurrent refresh: it committed its pair, which this caller gets too.
  const after = await repo.findToken(db, tokenDigest);
  if (after && !after.grant.revokedAt) {
    const replay = replayWithinGrace(ctx, after.token, clock.now());
    if (replay) return replay;
  }
  return reused(ctx, found.grant.id);
}
