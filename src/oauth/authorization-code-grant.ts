// grant_type=authorization_code (RFC 6749 §4.1.3 with PKCE): a code is consumed once, atomically, before tokens are issued.
import { type ClientCredentials, authenticateClient } from './oauth-clients';
import { type OAuthContext, secretDigest } from './oauth-context';
import { OAuthError } from './oauth-error';
import * as repo from './oauth.repo';
import { verifyPkce } from './pkce';
import { revokeGrant } from './grant-revocation';
import { checkResource, sameResource } from './resource-indicator';
import { issueTokens, type TokenResponse } from './token-issuing';

/** The token request's fields for this grant type. */
export interface CodeExchange {
  code: string;
  redirectUri?: string;
  codeVerifier?: string;
  resource?: string;
}

type CodeGrantContext = Pick<OAuthContext, 'db' | 'clock' | 'credentials' | 'digestKey' | 'recorderRedirects' | 'resources'>;

/** The grant a code was issued from, while it is not revoked and its member is still active. */
async function liveGrant(ctx: Pick<OAuthContext, 'db'>, grantId: string) {
  const row = await repo.findGrantWithMember(ctx.db, grantId);
  if (!row || row.grant.revokedAt || row.member.status !== 'active') {
    throw new OAuthError('invalid_grant', 'The authorisation has been revoked');
  }
  return row.grant;
}

/**
 * Exchanges an authorization code for a token pair. The code must be the client's own, unexpired, sent
 * with the redirect_uri and the PKCE verifier of its request; a code presented twice revokes its grant.
 *
 * @example
 * ```ts
 * const tokens = await exchangeCode(ctx, { clientId, clientSecret }, { code, redirectUri, codeVerifier });
 * ```
 */
export async function exchangeCode(ctx: CodeGrantContext, client: ClientCredentials, input: CodeExchange): Promise<TokenResponse> {
  const app = await authenticateClient(ctx, client);
  checkResource(ctx, input.resource);
  const { db } = ctx;
  const now = ctx.clock.now();
  const codeDigest = secretDigest(ctx, input.code);
  // Another client's code is refused before it is touched: it can neither spend nor (replaying a spent
  // one) revoke an authorisation that is not its own.
  const issued = await repo.findCode(db, codeDigest);
  if (issued && issued.appId !== app.id) throw new OAuthError('invalid_grant', 'This authorization code was issued to another client');
  const row = await repo.consumeCode(db, codeDigest, now);
  if (!row) {
    const seen = await repo.findCode(db, codeDigest);
    // A code presented twice was intercepted or replayed: everything issued from it is revoked.
    if (seen?.consumedAt) await revokeGrant(ctx, seen.grantId, 'authorization code reused');
    throw new OAuthError('invalid_grant', seen ? 'This authorization code has already been used' : 'Unknown authorization code');
  }
  if (row.appId !== app.id) throw new OAuthError('invalid_grant', 'This authorization code was issued to another client');
  if (row.expiresAt <= now) throw new OAuthError('invalid_grant', 'This authorization code has expired');
  if (input.redirectUri !== row.redirectUri) {
    throw new OAuthError('invalid_grant', 'redirect_uri must be the one used in the authorization request');
  }
  if (row.codeChallenge) {
    if (!input.codeVerifier || !verifyPkce(row.codeChallenge, input.codeVerifier)) {
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    }
  } else if (input.codeVerifier) {
    throw new OAuthError('invalid_grant', 'code_verifier sent but the authorization request had no code_challenge');
  }
  const grant = await liveGrant(ctx, row.grantId);
  sameResource(grant, input.resource);
  return db.transaction((tx) => issueTokens(ctx, tx, grant.id, grant.scopes));
}
