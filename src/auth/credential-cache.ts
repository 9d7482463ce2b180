// Resolved credentials kept in memory so a request costs no query, dropped by tag the moment one is revoked.
import { type Changes, type Tag, tags } from '../core/changes';
import { GuardedCache } from '../core/guarded-cache';
import type { AuthContext } from './permissions';

export interface CachedCredential {
  auth: AuthContext;
  expiresAt: Date | null;
  /** Sessions only: the token the web app must echo in X-CSRF-Token on unsafe requests. */
  csrfToken?: string;
  lastUsedAt: Date | null;
}

/**
 * Records a credential's last use at most every `intervalMs` (API keys, sessions): a listing needs minutes,
 * not a write per request. The cached entry remembers the last write, so this costs nothing in between.
 *
 * @example
 * ```ts
 * import { touchIfStale, type CachedCredential } from './credential-cache';
 *
 * declare const entry: CachedCredential;
 * touchIfStale(entry, new Date(), 60_000, async (now) => {
 *   // UPDATE api_keys SET last_used_at = now WHERE id = …
 * });
 * ```
 */
export function touchIfStale(entry: CachedCredential, now: Date, intervalMs: number, write: (now: Date) => Promise<void>) {
  if (entry.lastUsedAt && now.getTime() - entry.lastUsedAt.getTime() < intervalMs) return;
  entry.lastUsedAt = now;
  void write(now).catch(() => {});
}

/**
 * Resolved credentials keyed by their digest, so that the bearer hook needs no database round trip.
 * Entries are tagged `credential:<id>` (the key, session or OAuth grant) and `member:<id>`; announcing a
 * tag (revocation, rotation, a role change) drops them here at once and in every other process through the
 * bus. The TTL bounds staleness should a bus message ever be lost.
 *
 * @example
 * ```ts
 * import type { Changes } from '../core/changes';
 * import { tags } from '../core/changes';
 * import { type CachedCredential, CredentialCache } from './credential-cache';
 *
 * declare const changes: Changes;
 * declare function loadKey(digest: string): Promise<CachedCredential | null>;
 * const credentials = new CredentialCache(changes);
 * const key = await credentials.resolve('digest…', new Date(), () => loadKey('digest…'));
 * await credentials.invalidate(tags.credential('key_01jd3k7q9x8v2m4n6p0r5s7t9w')); // on revocation
 * ```
 */
export class CredentialCache {
  private readonly cache: GuardedCache<CachedCredential>;

  constructor(
    private readonly changes: Changes,
    ttlMs = 60_000,
  ) {
    this.cache = new GuardedCache(changes, ttlMs, 50_000);
  }

  /**
   * The live credential for `digest`: from the cache, or from `load` on a miss (one query), cached for the
   * next request unless a change was announced meanwhile. Null when unknown, or expired at `now`.
   */
  async resolve(
    digest: string,
    now: Date,
    load: () => Promise<CachedCredential | null>,
  ): Promise<CachedCredential | null> {
    const entry = await this.cache.load(
      digest,
      ({ auth }) => [tags.credential(auth.credentialId), tags.member(auth.memberId)],
      async () => (await load()) ?? undefined,
    );
    if (!entry) return null;
    return entry.expiresAt && entry.expiresAt <= now ? null : entry;
  }

  /** Drops every entry carrying one of `tags`, in this process now and in the others via the bus. */
  invalidate(...changed: Tag[]): Promise<void> {
    return this.changes.announce(...changed);
  }
}
