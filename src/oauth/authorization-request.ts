// The authorization endpoint's request (RFC 6749 §4.1.1 with PKCE): checked for the signed-in user before consent.
import type { AuthContext } from '../auth/permissions';
import { SCOPES, type Scope } from '../auth/permissions';
import { AppError } from '../core/errors';
import { findClient } from './oauth-clients';
import type { OAuthContext } from './oauth-context';
import { OAuthError } from './oauth-error';
import { CODE_CHALLENGE } from './pkce';
import { checkResource } from './resource-indicator';

/** The query of `{APP_URL}/oauth/authorize`, as the consent page passes it on. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri?: string;
  responseType: string;
  scope?: string;
  state?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  /** RFC 8707 resource indicator: this API or its /mcp endpoint. */
  resource?: string;
}

type RequestContext = Pick<OAuthContext, 'db' | 'recorderRedirects' | 'resources' | 'members'>;

/** Errors that must not redirect (RFC 6749 §4.1.2.1): the redirect target itself is not trusted yet. */
async function clientAndRedirect(ctx: RequestContext, req: AuthorizationRequest) {
  const app = await findClient(ctx, req.clientId);
  if (!app) throw new AppError('invalid_request', 'Unknown client_id: this application is not registered');
  const redirectUri = req.redirectUri ?? (app.redirectUris.length === 1 ? app.redirectUris[0] : undefined);
  if (!redirectUri || !app.redirectUris.includes(redirectUri)) {
    throw new AppError('invalid_request', 'redirect_uri does not match any address registered for this application');
  }
  return { app, redirectUri };
}

/**
 * The workspace the user grants: one they chose on the consent page, else the one they are signed in to.
 * Any app may be authorised for any workspace; choosing one where the user is not an active member is
 * the user's mistake, not the client's, so it is a 400 on the consent page and never a redirect.
 */
async function grantingMember(ctx: RequestContext, auth: AuthContext, workspaceId: string | undefined) {
  const member = await ctx.members.findActiveMember(workspaceId ?? auth.workspaceId, auth.userId);
  if (!member) {
    throw new AppError('invalid_request', 'You are not an active member of that workspace', {
      details: [{ field: 'workspace_id', message: 'must be a workspace you are an active member of' }],
    });
  }
  return member;
}

/**
 * Validates an authorisation request for the signed-in user. An unknown client, an unregistered
 * redirect_uri or a workspace the user is not a member of throw (a 400, never redirected); the other
 * problems come back as `error`, an OAuthError to send to the client at `redirectUri`.
 *
 * @example
 * ```ts
 * const checked = await validateAuthorization(ctx, auth, { clientId, responseType: 'code', codeChallenge, codeChallengeMethod: 'S256' });
 * if (checked.error) redirectTo(checked.redirectUri, checked.error);
 * ```
 */
export async function validateAuthorization(ctx: RequestContext, auth: AuthContext, req: AuthorizationRequest, workspaceId?: string) {
  const { app, redirectUri } = await clientAndRedirect(ctx, req);
  const member = await grantingMember(ctx, auth, workspaceId);
  const check = async () => {
    if (req.responseType !== 'code') {
      throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported');
    }
    const requested = (req.scope ?? '').split(' ').filter(Boolean);
    const scopes = requested.length > 0 ? requested : app.scopes;
    const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s) || !app.scopes.includes(s));
    if (unknown.length > 0) throw new OAuthError('invalid_scope', `Scope not allowed for this application: ${unknown.join(' ')}`);
    if (req.codeChallenge !== undefined || req.codeChallengeMethod !== undefined) {
      if (req.codeChallengeMethod !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256');
      if (!req.codeChallenge || !CODE_CHALLENGE.test(req.codeChallenge)) {
        throw new OAuthError('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier');
      }
    } else if (app.isPublic) {
      throw new OAuthError('invalid_request', 'PKCE (code_challenge with S256) is required for public clients');
    }
    checkResource(ctx, req.resource);
    return { scopes: [...new Set(scopes)] as Scope[] };
  };
  try {
    return { app, redirectUri, member, ...(await check()), error: null };
  } catch (error) {
    if (error instanceof OAuthError) return { app, redirectUri, member, scopes: [], error };
    throw error;
  }
}
