// The OAuth flows as one service: binds each step (one file each, table below) to the context built here.
import type { Actor, RequestOrigin } from '../audit/actor';
import type { AuthContext } from '../auth/permissions';
import { type AuthorizationRequest, validateAuthorization } from './authorization-request';
import { exchangeCode, type CodeExchange } from './authorization-code-grant';
import { describeConsent, decideConsent } from './consent';
import { resolveAccessToken } from './access-token-resolution';
import { revokeGrant } from './grant-revocation';
import type { ClientCredentials } from './oauth-clients';
import type { OAuthContext, OAuthTokensDeps } from './oauth-context';
import { recorderRedirectUris } from './recorder-client';
import { refreshTokens, type RefreshRequest } from './refresh-token-grant';
import { revokeToken } from './token-revocation';
import { protectedResources } from './well-known.routes';

// The bearer hook (app.ts) and the MCP module name access tokens by this prefix.

/**
 * The authorization-code flow of RFC 6749 with PKCE (RFC 7636), refresh-token rotation with reuse
 * detection, and revocation (RFC 7009). Each step is a function of its own file, taking the context built
 * here; the security-critical ones (consuming a code, using a refresh token) are single atomic UPDATEs.
 *
 * | verb | file |
 * |---|---|
 * | validate | authorization-request.ts |
 * | describe, decide | consent.ts |
 * | exchangeCode (grant_type=authorization_code) | authorization-code-grant.ts |
 * | refresh (grant_type=refresh_token) | refresh-token-grant.ts |
 * | revoke (RFC 7009) | token-revocation.ts |
 * | resolve (bearer) | access-token-resolution.ts |
 * | revokeGrant | grant-revocation.ts |
 *
 * @example
 * ```ts
 * const oauthTokens = createOAuthTokensService({ ...kernel, digestKey, sealingKey, members: accounts.reader });
 * const tokens = await oauthTokens.exchangeCode({ clientId }, { code, redirectUri, codeVerifier });
 * const auth = await oauthTokens.resolve(tokens.access_token);
 * ```
 */
export function createOAuthTokensService({ database, ...deps }: OAuthTokensDeps) {
  const ctx: OAuthContext = {
    ...deps,
    db: database.db,
    recorderRedirects: recorderRedirectUris(deps.config.RECORDER_EXTENSION_IDS),
    resources: protectedResources(deps.config),
  };
  return {
    validate: (auth: AuthContext, req: AuthorizationRequest, workspaceId?: string) => validateAuthorization(ctx, auth, req, workspaceId),
    describe: (auth: AuthContext, req: AuthorizationRequest) => describeConsent(ctx, auth, req),
    decide: (auth: AuthContext, req: AuthorizationRequest, allow: boolean, workspaceId?: string) =>
      decideConsent(ctx, auth, req, allow, workspaceId),
    exchangeCode: (client: ClientCredentials, input: CodeExchange) => exchangeCode(ctx, client, input),
    refresh: (client: ClientCredentials, input: RefreshRequest) => refreshTokens(ctx, client, input),
    revoke: (client: ClientCredentials, token: string, from: RequestOrigin) => revokeToken(ctx, client, token, from),
    resolve: (token: string) => resolveAccessToken(ctx, token),
    revokeGrant: (grantId: string, reason: string, actor?: Actor) => revokeGrant(ctx, grantId, reason, actor),
  };
}

/** The OAuth flows with their context bound: what `services.oauth.oauthTokens` holds. */
export type OAuthTokensService = ReturnType<typeof createOAuthTokensService>;
