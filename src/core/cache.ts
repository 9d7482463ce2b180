/**
 * A bounded in-process cache whose entries expire after `ttlMs` and can be dropped by tag (for example
 * every credential of one member). Map insertion order doubles as the eviction order.
 */
export class TaggedCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number; tags: string[] }>();
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

  set(key: string, value: V, tags: string[] = []): void {
    this.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs, tags });
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
