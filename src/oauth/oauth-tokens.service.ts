import { tags } from '../core/changes';
import { type Actor, clientActor, type RequestOrigin, systemActor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import { findActiveMember, membershipsOfUser } from '../accounts/accounts.repo';
import { type CredentialCache, touchIfStale } from '../auth/credential-cache';
import { type AuthContext, type Role, SCOPES, type Scope } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { hmacHex, randomBase62, randomToken, safeEqual, seal, unseal } from '../core/crypto';
import { AppError } from '../core/errors';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import { OAuthError } from './oauth-error';
import * as repo from './oauth.repo';
import { CODE_CHALLENGE, verifyPkce } from './pkce';
import { RECORDER_CLIENT_ID, recorderRedirectUris } from './recorder-client';
import { protectedResources } from './well-known.routes';

export const ACCESS_TOKEN_PREFIX = 'dsa_';
const REFRESH_TOKEN_PREFIX = 'dsr_';
export const ACCESS_TOKEN_TTL_S = 3600;
const REFRESH_TOKEN_TTL_MS = 60 * 86_400_000;
const CODE_TTL_MS = 60_000;
/** A grant's last_used_at is written at most this often: the listing needs minutes, not a write per request. */
const TOUCH_INTERVAL_MS = 60_000;

export interface OAuthTokensDeps {
  database: Database;
  clock: Clock;
  credentials: CredentialCache;
  digestKey: Buffer;
  /** Seals the pair a refresh issued, kept on the used refresh token for the grace window. */
  sealingKey: Buffer;
  config: { RECORDER_EXTENSION_IDS: string[]; OAUTH_REFRESH_GRACE: number; APP_URL: string; API_URL?: string };
}

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

export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * The authorization-code flow of RFC 6749 with PKCE (RFC 7636), refresh-token rotation with reuse
 * detection, and revocation (RFC 7009). Each step is a small named function; the security-critical ones
 * (consuming a code, using a refresh token) are single atomic UPDATEs.
 */
export function createOAuthTokensService({ database, clock, credentials, digestKey, sealingKey, config }: OAuthTokensDeps) {
  const { db } = database;
  const digest = (secret: string) => hmacHex(digestKey, secret);
  const recorderRedirects = recorderRedirectUris(config.RECORDER_EXTENSION_IDS);
  const resources = protectedResources(config);

  /** RFC 8707: a resource indicator must name this API or its MCP endpoint, exactly. */
  function checkResource(resource: string | undefined) {
    if (resource !== undefined && !resources.includes(resource)) {
      throw new OAuthError('invalid_target', `resource must be one of ${resources.join(', ')}`);
    }
  }

  /** A registered app, or the built-in recorder client with the redirect addresses this instance trusts. */
  async function findClient(clientId: string | undefined) {
    const app = clientId ? await repo.findApp(db, clientId) : undefined;
    return app?.id === RECORDER_CLIENT_ID ? { ...app, redirectUris: recorderRedirects } : app;
  }

  /** Errors that must not redirect (RFC 6749 §4.1.2.1): the redirect target itself is not trusted yet. */
  async function clientAndRedirect(req: AuthorizationRequest) {
    const app = await findClient(req.clientId);
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
  async function grantingMember(auth: AuthContext, workspaceId: string | undefined) {
    const member = await findActiveMember(db, workspaceId ?? auth.workspaceId, auth.userId);
    if (!member) {
      throw new AppError('invalid_request', 'You are not an active member of that workspace', {
        details: [{ field: 'workspace_id', message: 'must be a workspace you are an active member of' }],
      });
    }
    return member;
  }

  /** Validates an authorisation request for the signed-in user; OAuthErrors here are sent to the client. */
  async function validate(auth: AuthContext, req: AuthorizationRequest, workspaceId?: string) {
    const { app, redirectUri } = await clientAndRedirect(req);
    const member = await grantingMember(auth, workspaceId);
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
      checkResource(req.resource);
      return { scopes: [...new Set(scopes)] as Scope[] };
    };
    try {
      return { app, redirectUri, member, ...(await check()), error: null };
    } catch (error) {
      if (error instanceof OAuthError) return { app, redirectUri, member, scopes: [], error };
      throw error;
    }
  }

  /**
   * What the consent page shows: the request checked for the workspace the user is signed in to, who the
   * app belongs to, and the workspaces the user may grant instead.
   */
  async function describe(auth: AuthContext, req: AuthorizationRequest) {
    const checked = await validate(auth, req);
    const owner = checked.app.workspaceId ? await repo.workspaceName(db, checked.app.workspaceId) : null;
    const memberships = await membershipsOfUser(db, auth.userId);
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

  /** The user's answer on the consent page; returns where to send the browser. */
  async function decide(auth: AuthContext, req: AuthorizationRequest, allow: boolean, workspaceId?: string): Promise<string> {
    const checked = await validate(auth, req, workspaceId);
    if (checked.error) {
      return redirectWith(checked.redirectUri, { error: checked.error.error, error_description: checked.error.description, state: req.state });
    }
    if (!allow) {
      return redirectWith(checked.redirectUri, { error: 'access_denied', error_description: 'The user declined', state: req.state });
    }
    const code = randomToken(32);
    const now = clock.now();
    await db.transaction(async (tx) => {
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
        digest: digest(code),
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

  async function authenticateClient({ clientId, clientSecret }: ClientCredentials) {
    const app = await findClient(clientId);
    if (!app) throw new OAuthError('invalid_client', 'Unknown client');
    if (app.isPublic) {
      if (clientSecret) throw new OAuthError('invalid_client', 'This public client has no secret');
      return app;
    }
    if (!clientSecret || !app.secretDigest || !safeEqual(digest(clientSecret), app.secretDigest)) {
      throw new OAuthError('invalid_client', 'Client authentication failed');
    }
    return app;
  }

  async function revokeGrant(grantId: string, reason: string, actor: Actor = systemActor()) {
    await db.transaction(async (tx) => {
      const grant = await repo.revokeGrant(tx, grantId, clock.now(), reason);
      if (!grant) return;
      await recordAudit(tx, clock, actor, {
        workspaceId: grant.workspaceId,
        action: 'grant.revoked',
        target: { type: 'oauth_grant', id: grant.id },
        changes: { app_id: grant.appId, user_id: grant.userId, reason, scopes: grant.scopes },
      });
    });
    await credentials.invalidate(tags.credential(grantId));
  }

  async function issueTokens(tx: Executor, grantId: string, scopes: string[]): Promise<TokenResponse> {
    const now = clock.now();
    const access = `${ACCESS_TOKEN_PREFIX}${randomBase62(43)}`;
    const refresh = `${REFRESH_TOKEN_PREFIX}${randomBase62(43)}`;
    const common = { grantId, scopes, createdAt: now };
    await repo.insertToken(tx, {
      ...common,
      id: newId('oauthToken'),
      kind: 'access',
      digest: digest(access),
      expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000),
    });
    await repo.insertToken(tx, {
      ...common,
      id: newId('oauthToken'),
      kind: 'refresh',
      digest: digest(refresh),
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
    });
    return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_S, refresh_token: refresh, scope: scopes.join(' ') };
  }

  /** A token request may repeat the authorisation's resource, not name another one. */
  function sameResource(grant: { resource: string | null }, resource: string | undefined) {
    if (resource !== undefined && grant.resource !== null && resource !== grant.resource) {
      throw new OAuthError('invalid_target', `This authorisation is for ${grant.resource}`);
    }
  }

  async function liveGrant(grantId: string) {
    const row = await repo.findGrantWithMember(db, grantId);
    if (!row || row.grant.revokedAt || row.member.status !== 'active') {
      throw new OAuthError('invalid_grant', 'The authorisation has been revoked');
    }
    return row.grant;
  }

  async function exchangeCode(
    client: ClientCredentials,
    input: { code: string; redirectUri?: string; codeVerifier?: string; resource?: string },
  ): Promise<TokenResponse> {
    const app = await authenticateClient(client);
    checkResource(input.resource);
    const now = clock.now();
    const codeDigest = digest(input.code);
    // Another client's code is refused before it is touched: it can neither spend nor (replaying a spent
    // one) revoke an authorisation that is not its own.
    const issued = await repo.findCode(db, codeDigest);
    if (issued && issued.appId !== app.id) throw new OAuthError('invalid_grant', 'This authorization code was issued to another client');
    const row = await repo.consumeCode(db, codeDigest, now);
    if (!row) {
      const seen = await repo.findCode(db, codeDigest);
      // A code presented twice was intercepted or replayed: everything issued from it is revoked.
      if (seen?.consumedAt) await revokeGrant(seen.grantId, 'authorization code reused');
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
    const grant = await liveGrant(row.grantId);
    sameResource(grant, input.resource);
    return db.transaction((tx) => issueTokens(tx, grant.id, grant.scopes));
  }

  /**
   * The pair a refresh token already bought, when it is presented again within OAUTH_REFRESH_GRACE of its
   * use (two requests of one client racing, RFC 9700 §4.14.2): the same pair, not a second one. Null after
   * the window, or when nothing was kept: the caller then treats the reuse as theft.
   */
  function replayWithinGrace(token: { usedAt: Date | null; revokedAt: Date | null; successorSealed: string | null }, now: Date) {
    if (!token.usedAt || token.revokedAt || !token.successorSealed) return null;
    const elapsed = now.getTime() - token.usedAt.getTime();
    if (elapsed > config.OAUTH_REFRESH_GRACE) return null;
    const pair = JSON.parse(unseal(sealingKey, token.successorSealed)) as TokenResponse;
    return { ...pair, expires_in: Math.max(0, pair.expires_in - Math.floor(elapsed / 1000)) };
  }

  async function reused(grantId: string): Promise<never> {
    // Rotation means a refresh token is used once; a second use means it leaked: end the whole grant.
    await revokeGrant(grantId, 'refresh token reused');
    throw new OAuthError('invalid_grant', 'This refresh token has already been used; the authorisation is revoked');
  }

  async function refresh(client: ClientCredentials, input: { refreshToken: string; scope?: string; resource?: string }): Promise<TokenResponse> {
    const app = await authenticateClient(client);
    checkResource(input.resource);
    const now = clock.now();
    const tokenDigest = digest(input.refreshToken);
    const found = await repo.findToken(db, tokenDigest);
    if (found?.token.kind !== 'refresh' || found.grant.appId !== app.id) {
      throw new OAuthError('invalid_grant', 'Unknown refresh token');
    }
    if (found.grant.revokedAt) throw new OAuthError('invalid_grant', 'The authorisation has been revoked');
    sameResource(found.grant, input.resource);
    if (found.token.usedAt || found.token.revokedAt) return replayWithinGrace(found.token, now) ?? reused(found.grant.id);
    if (found.token.expiresAt <= now) throw new OAuthError('invalid_grant', 'This refresh token has expired');
    if (found.member.status !== 'active') throw new OAuthError('invalid_grant', 'The authorisation has been revoked');
    let scopes = found.token.scopes;
    if (input.scope !== undefined) {
      const asked = input.scope.split(' ').filter(Boolean);
      const extra = asked.filter((s) => !scopes.includes(s));
      if (asked.length === 0 || extra.length > 0) {
        throw new OAuthError('invalid_scope', `A refresh can only narrow the scopes${extra.length ? `: ${extra.join(' ')} was not granted` : ''}`);
      }
      scopes = asked;
    }
    const result = await db.transaction(async (tx) => {
      // A concurrent refresh with the same token waits here on the row until this one commits.
      if (!(await repo.useRefreshToken(tx, found.token.id, now))) return null;
      const pair = await issueTokens(tx, found.grant.id, scopes);
      const graceEnded = new Date(now.getTime() - config.OAUTH_REFRESH_GRACE);
      await repo.recordSuccessor(tx, found.token.id, found.grant.id, seal(sealingKey, JSON.stringify(pair)), graceEnded);
      return pair;
    });
    if (result) return result;
    // Lost the race to a concurrent refresh: it committed its pair, which this caller gets too.
    const after = await repo.findToken(db, tokenDigest);
    if (after && !after.grant.revokedAt) {
      const replay = replayWithinGrace(after.token, clock.now());
      if (replay) return replay;
    }
    return reused(found.grant.id);
  }


  /** RFC 7009: always succeeds for the client, whether or not the token existed. */
  async function revoke(client: ClientCredentials, token: string, from: RequestOrigin): Promise<void> {
    const app = await authenticateClient(client);
    const found = await repo.findToken(db, digest(token));
    if (!found || found.grant.appId !== app.id) return;
    const actor = clientActor(from, found.grant);
    if (found.token.kind === 'refresh') {
      await revokeGrant(found.grant.id, 'revoked by the client', actor);
    } else {
      await db.transaction(async (tx) => {
        await repo.revokeToken(tx, found.token.id, clock.now());
        await recordAudit(tx, clock, actor, {
          workspaceId: found.grant.workspaceId,
          action: 'grant.revoked',
          target: { type: 'oauth_grant', id: found.grant.id },
          changes: { app_id: found.grant.appId, user_id: found.grant.userId, reason: 'access token revoked by the client' },
        });
      });
      await credentials.invalidate(tags.credential(found.grant.id));
    }
  }

  /** Bearer resolution of access tokens, cached like API keys. */
  async function resolve(token: string): Promise<AuthContext | null> {
    if (!/^dsa_[0-9A-Za-z]{43}$/.test(token)) return null;
    const tokenDigest = digest(token);
    const now = clock.now();
    const entry = await credentials.resolve(tokenDigest, now, async () => {
      const found = await repo.findToken(db, tokenDigest);
      if (
        found?.token.kind !== 'access' ||
        found.token.revokedAt ||
        found.grant.revokedAt ||
        found.member.status !== 'active' ||
        !found.member.userId
      ) {
        return null;
      }
      return {
        auth: {
          kind: 'oauth',
          credentialId: found.grant.id,
          workspaceId: found.grant.workspaceId,
          userId: found.member.userId,
          memberId: found.member.id,
          role: found.member.role as Role,
          scopes: new Set(found.token.scopes as Scope[]),
        },
        expiresAt: found.token.expiresAt,
        lastUsedAt: found.grant.lastUsedAt,
      };
    });
    if (!entry) return null;
    touchIfStale(entry, now, TOUCH_INTERVAL_MS, (at) => repo.touchGrant(db, entry.auth.credentialId, at, TOUCH_INTERVAL_MS));
    return entry.auth;
  }

  return { validate, describe, decide, exchangeCode, refresh, revoke, resolve, revokeGrant };
}

export type OAuthTokensService = ReturnType<typeof createOAuthTokensService>;
