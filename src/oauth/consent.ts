// The consent page's two steps: describing a checked request, then the user's decision (an authorization code or an error redirect).
import type { AuthContext, Role } from '../auth/permissions';
import { randomToken } from '../core/crypto';
import { newId } from '../core/ids';
import { type AuthorizationRequest, validateAuthorization } from './authorization-request';
import { type OAuthContext, secretDigest } from './oauth-context';
import * as repo from './oauth.repo';
import { RECORDER_CLIENT_ID } from './recorder-client';

/** RFC 6749 §4.1.2 wants codes short-lived (10 minutes at most); a client exchanges its code at once. */
const CODE_TTL_MS = 60_000;

type ConsentContext = Pick<OAuthContext, 'db' | 'clock' | 'digestKey' | 'recorderRedirects' | 'resources' | 'members'>;

/**
 * What the consent page shows: the request checked for the workspace the user is signed in to, who the
 * app belongs to, and the workspaces the user may grant instead.
 *
 * @example
 * ```ts
 * const { app, scopes, owner, builtIn, workspaces, error } = await describeConsent(ctx, auth, request);
 * ```
 */
export async function describeConsent(ctx: ConsentContext, auth: AuthContext, req: AuthorizationRequest) {
  const checked = await validateAuthorization(ctx, auth, req);
  const owner = checked.app.workspaceId ? await repo.workspaceName(ctx.db, checked.app.workspaceId) : null;
  const memberships = await ctx.members.membershipsOfUser(auth.userId);
  return {
    ...checked,
    owner,
    builtIn: checked.app.id === RECORDER_CLIENT_ID,
    workspaces: memberships.map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.member.role as Role })),
  };
}

function redirectWith(redirectUri: string, params: Record<string, string | undefined>) {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/**
 * The user's answer on the consent page; returns where to send the browser: the client's redirect_uri
 * with `code` and `state` (the grant and its code stored in one transaction), or with an RFC 6749 error.
 *
 * @example
 * ```ts
 * const location = await decideConsent(ctx, auth, request, true, 'workspace_01j…');
 * // https://client.example/callback?code=…&state=…
 * ```
 */
export async function decideConsent(
  ctx: ConsentContext,
  auth: AuthContext,
  req: AuthorizationRequest,
  allow: boolean,
  workspaceId?: string,
): Promise<string> {
  const checked = await validateAuthorization(ctx, auth, req, workspaceId);
  if (checked.error) {
    return redirectWith(checked.redirectUri, { error: checked.error.error, error_description: checked.error.description, state: req.state });
  }
  if (!allow) {
    return redirectWith(checked.redirectUri, { error: 'access_denied', error_description: 'The user declined', state: req.state });
  }
  const code = randomToken(32);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const grant = await repo.insertGrant(tx, {
      id: newId('oauthGrant'),
      appId: checked.app.id,
      workspaceId: checked.member.workspaceId,
      memberId: checked.member.id,
      userId: auth.userId,
      scopes: checked.scopes,
      resource: req.resource ?? null,
      createdAt: now,
    });
    await repo.insertCode(tx, {
      digest: secretDigest(ctx, code),
      grantId: grant.id,
      appId: checked.app.id,
      redirectUri: checked.redirectUri,
      codeChallenge: req.codeChallenge ?? null,
      codeChallengeMethod: req.codeChallenge ? 'S256' : null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    });
  });
  return redirectWith(checked.redirectUri, { code, state: req.state });
}
