import type { Bus } from './bus';

const CHANNEL = 'changes';

/**
 * The one invalidation path. Services announce what changed, after the commit, as tags (`demo:<id>`,
 * `share:<id>`, `session:<id>`, `credential:<id>`, `member:<id>`); caches subscribe and drop what carries
 * the tag. An announcement is heard here at once and in every other process through the bus. While the
 * bus is cut off (`live` false), announcements from elsewhere may be missed: caches serve nothing then,
 * and drop everything when it reconnects (`onGap`). Only a message lost with the bus connected, which
 * neither side noticed, is left to the caches' TTLs.
 */
export class Changes {
  /**
   * Bumped by every change heard, from this process or another. A cache load that spans a bump does not
   * store its result: it may have read the state from before the change (GuardedCache).
   */
  epoch = 0;
  private readonly handlers = new Set<(tag: string) => void>();
  private readonly gapHandlers = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private readonly unwatch: () => void;

  constructor(
    private readonly bus: Bus,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.unsubscribe = bus.subscribe(CHANNEL, (tag) => {
      this.epoch++;
      for (const handler of this.handlers) handler(tag);
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
  async announce(...tags: string[]): Promise<void> {
    for (const tag of tags) {
      try {
        // Every bus delivers to this process before it sends to the others: the drop here is never lost.
        await this.bus.publish(CHANNEL, tag);
      } catch (error) {
        // The change is committed and dropped here; other processes catch up when their TTL runs out.
        this.onError(error);
      }
    }
  }

  subscribe(handler: (tag: string) => void): () => void {
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
