import type { Bus } from '../core/bus';
import { TaggedCache } from '../core/cache';
import type { DemoStatus } from '../demos/demos.tables';
import type { ShareRow } from '../shares/shares.schemas';
import type { viewerSessions } from '../shares/shares.tables';

const CHANNEL = 'viewer-cache';

export interface LinkState {
  share: ShareRow;
  demoStatus: DemoStatus;
  /** Step numbers a viewer's events may name: 1..stepCount. */
  stepCount: number;
}

export interface DemoPayload {
  /** The `data` of GET /v1/viewer/:token/demo, serialised once. */
  json: string;
  /**
   * Weak validator of `json`: a player coming back to an unchanged demo gets a 304 (weak, because each
   * response's `meta.request_id` differs while the demo does not).
   */
  etag: string;
  assetIds: ReadonlySet<string>;
}

export type ViewerSessionRow = typeof viewerSessions.$inferSelect;

/**
 * What viewer requests read on every hit (the link, its demo's payload, the viewer's session), cached in
 * process. Entries are tagged `share:<id>`, `demo:<id>` and `session:<id>`; a change drops its tag here and,
 * through the bus, in every other process. The TTL bounds staleness should a bus message be lost.
 */
export class ViewerCache {
  readonly links: TaggedCache<LinkState>;
  readonly payloads: TaggedCache<DemoPayload>;
  readonly sessions: TaggedCache<ViewerSessionRow>;
  /**
   * Bumped by every invalidation. A load that began before an invalidation does not store its result:
   * it may have read the state from before the change.
   */
  private epoch = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: Bus,
    ttlMs = 30_000,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.links = new TaggedCache(ttlMs, 10_000);
    this.payloads = new TaggedCache(ttlMs, 1_000);
    this.sessions = new TaggedCache(ttlMs, 50_000);
    this.unsubscribe = bus.subscribe(CHANNEL, (tag) => this.drop(tag));
  }

  private drop(tag: string) {
    this.epoch++;
    this.links.invalidateTag(tag);
    this.payloads.invalidateTag(tag);
    this.sessions.invalidateTag(tag);
  }

  /** Call after the change has committed. */
  async invalidate(...tags: string[]): Promise<void> {
    for (const tag of tags) {
      this.drop(tag);
      try {
        await this.bus.publish(CHANNEL, tag);
      } catch (error) {
        // The change is committed and dropped here; other processes catch up when their TTL runs out.
        this.onError(error);
      }
    }
  }

  async load<V>(
    cache: TaggedCache<V>,
    key: string,
    tags: (value: V) => string[],
    loader: () => Promise<V | undefined>,
  ): Promise<V | undefined> {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const epoch = this.epoch;
    const value = await loader();
    if (value !== undefined && epoch === this.epoch) cache.set(key, value, tags(value));
    return value;
  }

  close() {
    this.unsubscribe();
  }
}
