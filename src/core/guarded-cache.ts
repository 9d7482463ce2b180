// The one cache kind the service uses: entries go when an announced change names their tags, and nothing is stored while other processes' changes cannot be heard.
import { TaggedCache } from './cache';
import type { Changes, Tag } from './changes';
import { type Clock, systemClock } from './clock';

/**
 * The one cache: a TaggedCache kept right by announced changes (core/changes.ts). An entry goes when a
 * change names one of its tags, and a load that was in flight while any change was heard is returned to
 * its caller but not stored. Without that guard a load that read the state just before a change (a key
 * just before its revocation) would be cached after the change's announcement and served until its TTL.
 * While changes from other processes cannot be heard (the bus is down), it serves and stores nothing:
 * every read goes to the loader, and everything cached before is dropped, on the way down and again on
 * the way back.
 *
 * @example
 * ```ts
 * const links = new GuardedCache<LinkState>(changes, 30_000, 10_000, clock);
 * const link = await links.load(
 *   token,
 *   (l) => [tags.share(l.share.id), tags.demo(l.share.demoId)],
 *   () => repo.findLink(db, token), // undefined is returned, never cached
 * );
 * // Elsewhere, after the commit that revoked it: every process drops the entry.
 * await changes.announce(tags.share(id));
 * ```
 */
export class GuardedCache<V> {
  private readonly entries: TaggedCache<V>;
  private readonly unsubscribe: () => void;
  private readonly unwatch: () => void;

  constructor(
    private readonly changes: Changes,
    ttlMs: number,
    maxEntries: number,
    clock: Clock = systemClock,
  ) {
    this.entries = new TaggedCache(ttlMs, maxEntries, () => clock.now().getTime());
    this.unsubscribe = changes.subscribe((tag) => this.entries.invalidateTag(tag));
    this.unwatch = changes.onGap(() => this.entries.clear());
  }

  get(key: string): V | undefined {
    return this.changes.live ? this.entries.get(key) : undefined;
  }

  /**
   * The cached value of `key`, or `loader`'s, stored with `tags(value)` unless a change overtook it.
   * `until(value)`, when given, ends the entry early: when what it shows stops being right on its own
   * (a link that expires).
   */
  async load(
    key: string,
    tags: (value: V) => Tag[],
    loader: () => Promise<V | undefined>,
    until?: (value: V) => Date | null,
  ): Promise<V | undefined> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const epoch = this.changes.epoch;
    const value = await loader();
    if (value !== undefined && epoch === this.changes.epoch && this.changes.live) {
      this.entries.set(key, value, tags(value), until?.(value)?.getTime() ?? Infinity);
    }
    return value;
  }

  close() {
    this.unsubscribe();
    this.unwatch();
    this.entries.clear();
  }
}
