import type { Bus } from './bus';

const CHANNEL = 'changes';

/**
 * The one invalidation path. Services announce what changed, after the commit, as tags (`demo:<id>`,
 * `share:<id>`, `session:<id>`, `credential:<id>`, `member:<id>`); caches subscribe and drop what carries
 * the tag. An announcement is heard here at once and in every other process through the bus; one lost on
 * the way is covered by the caches' TTLs.
 */
export class Changes {
  /**
   * Bumped by every change heard, from this process or another. A cache load that spans a bump does not
   * store its result: it may have read the state from before the change (GuardedCache).
   */
  epoch = 0;
  private readonly handlers = new Set<(tag: string) => void>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: Bus,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.unsubscribe = bus.subscribe(CHANNEL, (tag) => {
      this.epoch++;
      for (const handler of this.handlers) handler(tag);
    });
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

  close() {
    this.unsubscribe();
    this.handlers.clear();
  }
}
