import type { Bus } from '../core/bus';
import { TaggedCache } from '../core/cache';
import type { AuthContext } from './permissions';

export interface CachedCredential {
  auth: AuthContext;
  expiresAt: Date | null;
  /** Sessions only: the token the web app must echo in X-CSRF-Token on unsafe requests. */
  csrfToken?: string;
  lastUsedAt: Date | null;
}

const CHANNEL = 'auth.invalidate';

/** The tag of every cached entry of one credential (API key, session or OAuth grant: ids never collide). */
export const credentialTag = (id: string) => `credential:${id}`;

/**
 * Resolved credentials keyed by their digest, so that the bearer hook needs no database round trip.
 * Entries are tagged (`credential:<id>` with the id of the key, session or OAuth grant, `member:<id>`,
 * `workspace:<id>`); invalidating a tag drops
 * them here at once and in every other process through the bus within its delivery time. The TTL bounds
 * staleness should a bus message ever be lost.
 */
export class CredentialCache {
  private readonly cache: TaggedCache<CachedCredential>;

  constructor(
    private readonly bus: Bus,
    ttlMs = 60_000,
  ) {
    this.cache = new TaggedCache(ttlMs, 50_000);
    bus.subscribe(CHANNEL, (tag) => this.cache.invalidateTag(tag));
  }

  get(digest: string): CachedCredential | undefined {
    return this.cache.get(digest);
  }

  set(digest: string, value: CachedCredential): void {
    const { auth } = value;
    this.cache.set(digest, value, [
      credentialTag(auth.credentialId),
      `member:${auth.memberId}`,
      `workspace:${auth.workspaceId}`,
    ]);
  }

  /**
   * The live credential for `digest`: from the cache, or from `load` on a miss (one query), cached for the
   * next request. Null when unknown, or expired at `now`.
   */
  async resolve(
    digest: string,
    now: Date,
    load: () => Promise<CachedCredential | null>,
  ): Promise<CachedCredential | null> {
    let entry = this.get(digest);
    if (!entry) {
      const loaded = await load();
      if (!loaded) return null;
      this.set(digest, loaded);
      entry = loaded;
    }
    return entry.expiresAt && entry.expiresAt <= now ? null : entry;
  }

  /** Drops every entry carrying one of `tags`, in this process now and in the others via the bus. */
  async invalidate(...tags: string[]): Promise<void> {
    for (const tag of tags) {
      this.cache.invalidateTag(tag);
      await this.bus.publish(CHANNEL, tag);
    }
  }
}
