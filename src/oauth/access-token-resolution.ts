// Bearer resolution of OAuth access tokens on every request, through the credential cache like API keys.
import { touchIfStale } from '../auth/credential-cache';
import type { AuthContext, Role, Scope } from '../auth/permissions';
import { type OAuthContext, secretDigest } from './oauth-context';
import * as repo from './oauth.repo';

/** A grant's last_used_at is written at most this often: the listing needs minutes, not a write per request. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The caller an access token stands for, or null when it is malformed, unknown, expired, revoked, or its
 * member is no longer active. A cache hit costs no query.
 *
 * @example
 * ```ts
 * const auth = await resolveAccessToken(ctx, 'dsa_…'); // { kind: 'oauth', credentialId: grant id, scopes, … }
 * ```
 */
export async function resolveAccessToken(
  ctx: Pick<OAuthContext, 'db' | 'clock' | 'credentials' | 'digestKey'>,
  token: string,
): Promise<AuthContext | null> {
  if (!/^dsa_[0-9A-Za-z]{43}$/.test(token)) return null;
  const { db } = ctx;
  const tokenDigest = secretDigest(ctx, token);
  const now = ctx.clock.now();
  const entry = await ctx.credentials.resolve(tokenDigest, now, async () => {
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
