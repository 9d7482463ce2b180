// Cache invalidation across processes: services announce tagged changes after the commit, and every process's caches drop what carries the tag.
import type { Bus } from './bus';

const CHANNEL = 'changes';

declare const tagBrand: unique symbol;

/**
 * What a change names and a cache entry carries: made only by {@link tags}, so a misspelt tag is a type
 * error instead of an invalidation that silently never reaches its entries.
 */
export type Tag = string & { readonly [tagBrand]: true };

const tag =
  (kind: string) =>
  (id: string): Tag =>
    `${kind}:${id}` as Tag;

/**
 * The one set of cache tags. Each names one thing whose change drops every entry built from it.
 *
 * @example
 * ```ts
 * // A cache entry built from a link, its demo and its workspace:
 * cache.load(token, (l) => [tags.share(l.id), tags.demo(l.demoId), tags.workspace(l.workspaceId)], load);
 * // After the commit that changed the link:
 * await changes.announce(tags.share(share.id), tags.demo(share.demoId));
 * ```
 */
export const tags = {
  /** A demo, its steps, hotspots, versions and generation state. */
  demo: tag('demo'),
  /** A share link (its settings, its revocation). */
  share: tag('share'),
  /** A viewer session. */
  session: tag('session'),
  /** One credential: an API key, a web session or an OAuth grant (their ids never collide). */
  credential: tag('credential'),
  /** A workspace member (role, removal): every credential acting as them. */
  member: tag('member'),
  /** A workspace's own settings (brand colour, share defaults) and its existence. */
  workspace: tag('workspace'),
  /** A custom domain's host name (added, verified, lost, removed): the Host routing's entries. */
  domain: tag('domain'),
} as const;

/**
 * The one invalidation path. Services announce what changed, after the commit, as {@link tags}; caches
 * (GuardedCache) subscribe and drop what carries the tag. An announcement is heard here at once and in
 * every other process through the bus. While the bus is cut off (`live` false), announcements from
 * elsewhere may be missed: caches serve nothing then, and drop everything when it reconnects (`onGap`).
 * Only a message lost with the bus connected, which neither side noticed, is left to the caches' TTLs.
 *
 * @example
 * ```ts
 * const changes = new Changes(bus, (error) => log.warn({ err: error }, 'not announced'));
 * await db.transaction(async (tx) => repo.updateDemo(tx, id, patch));
 * await changes.announce(tags.demo(id)); // after the commit, never inside the transaction
 * ```
 */
export class Changes {
  /**
   * Bumped by every change heard, from this process or another. A cache load that spans a bump does not
   * store its result: it may have read the state from before the change (GuardedCache).
   */
  epoch = 0;
  private readonly handlers = new Set<(tag: Tag) => void>();
  private readonly gapHandlers = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private readonly unwatch: () => void;

  constructor(
    private readonly bus: Bus,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.unsubscribe = bus.subscribe(CHANNEL, (message) => {
      this.epoch++;
      // Only tags travel on this channel: every publisher is `announce`.
      for (const handler of this.handlers) handler(message as Tag);
    });
    this.unwatch = bus.onConnectionChange(() => {
      // Either way a load in flight may have read state whose change this process never hears of.
      this.epoch++;
      for (const handler of this.gapHandlers) handler();
    });
  }

  /** Whether every change announced elsewhere reaches this process now (the bus is connected). */
  get live(): boolean {
    return this.bus.connected;
  }

  /** Call after the change has committed. */
  async announce(...changed: Tag[]): Promise<void> {
    for (const one of changed) {
      try {
        // Every bus delivers to this process before it sends to the others: the drop here is never lost.
        await this.bus.publish(CHANNEL, one);
      } catch (error) {
        // The change is committed and dropped here; other processes catch up when their TTL runs out.
        this.onError(error);
      }
    }
  }

  subscribe(handler: (tag: Tag) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** `handler` runs when the bus goes and when it comes back: announcements may have been missed. */
  onGap(handler: () => void): () => void {
    this.gapHandlers.add(handler);
    return () => this.gapHandlers.delete(handler);
  }

  close() {
    this.unsubscribe();
    this.unwatch();
    this.handlers.clear();
    this.gapHandlers.clear();
  }
}
