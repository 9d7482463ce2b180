// Bearer resolution of API keys on every request: the credential cache first, one query on a miss.
import { touchIfStale } from '../auth/credential-cache';
import type { AuthContext, Role, Scope } from '../auth/permissions';
import { type ApiKeysContext, keyDigest } from './api-keys-context';
import * as repo from './api-keys.repo';
import { isWellFormedApiKey } from './key-format';

// last_used_at is advisory: written at most this often per key, off the request path.
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The caller a key stands for, or null when it is malformed, unknown, expired, revoked, or its member is
 * no longer active.
 *
 * @example
 * ```ts
 * const auth = await resolveApiKey(ctx, 'dsk_…'); // { kind: 'api_key', credentialId: key id, scopes, … }
 * ```
 */
export async function resolveApiKey(
  ctx: Pick<ApiKeysContext, 'db' | 'clock' | 'credentials' | 'digestKey'>,
  token: string,
): Promise<AuthContext | null> {
  if (!isWellFormedApiKey(token)) return null;
  const { db } = ctx;
  const digest = keyDigest(ctx, token);
  const now = ctx.clock.now();
  const entry = await ctx.credentials.resolve(digest, now, async () => {
    const found = await repo.findKeyByDigest(db, digest);
    if (!found || found.key.revokedAt || found.member.status !== 'active' || !found.member.userId) return null;
    return {
      auth: {
        kind: 'api_key',
        credentialId: found.key.id,
        workspaceId: found.key.workspaceId,
        userId: found.member.userId,
        memberId: found.member.id,
        role: found.member.role as Role,
        scopes: new Set(found.key.scopes as Scope[]),
      },
      expiresAt: found.key.expiresAt,
      lastUsedAt: found.key.lastUsedAt,
    };
  });
  if (!entry) return null;
  touchIfStale(entry, now, TOUCH_INTERVAL_MS, (at) => repo.updateKey(db, entry.auth.credentialId, { lastUsedAt: at }).then(() => {}));
  return entry.auth;
}
