/**
 * A bounded in-process cache whose entries expire after `ttlMs` (or sooner, when set with an earlier
 * `expiresAt`) and can be dropped by tag (for example every credential of one member). Map insertion
 * order doubles as the eviction order. It knows nothing of changes made elsewhere: use it through
 * GuardedCache (guarded-cache.ts), which does.
 *
 * @example
 * ```ts
 * const cache = new TaggedCache<number>(60_000, 1_000, () => clock.now().getTime());
 * cache.set('k1', 1, ['member:1', 'workspace:w']);
 * cache.invalidateTag('workspace:w'); // k1 goes
 * ```
 */
export class TaggedCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number; tags: readonly string[] }>();
  private readonly byTag = new Map<string, Set<string>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Stores `value` until the TTL runs out, or until `expiresAt` (epoch ms) if that comes first. */
  set(key: string, value: V, tags: readonly string[] = [], expiresAt = Infinity): void {
    this.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: Math.min(this.now() + this.ttlMs, expiresAt), tags });
    for (const tag of tags) {
      const keys = this.byTag.get(tag) ?? new Set<string>();
      keys.add(key);
      this.byTag.set(tag, keys);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }

  invalidateTag(tag: string): void {
    for (const key of [...(this.byTag.get(tag) ?? [])]) this.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.byTag.clear();
  }
}
