import type { PageTranslation } from '../translations/translation-units';
import type { Changes } from '../core/changes';
import { GuardedCache } from '../core/guarded-cache';
import type { DemoReader } from '../demos/demos.reader';
import type { DemoStatus } from '../demos/demos.tables';
import type { PagePatch } from '../demos/story.schemas';
import type { ShareRow } from '../shares/shares.schemas';
import type { ViewerSessionRow } from './viewer.repo';
import type { FormStep } from './viewer-gates.form';

/** The sharing workspace as its share pages show it (workspaces/branding.ts makes it a Brand). */
export interface LinkWorkspace {
  id: string;
  name: string;
  brandColor: string | null;
  font: string;
  logoSha256: string | null;
}

export interface LinkState {
  share: ShareRow;
  workspace: LinkWorkspace;
  demoStatus: DemoStatus;
  /** The version viewers are served (null: never published), whose step numbers events name: 1..stepCount. */
  version: number | null;
  stepCount: number;
  /**
   * Set when an A/B test serves this viewer one of its arms (link-arms.ts `servedLink`): `share.demoId`,
   * `version` and `stepCount` are then the arm's. Never cached in `links`: it is one viewer's.
   */
  arm?: { id: string; experimentId: string; pinned: boolean };
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
  /** The page patches of the version's snapshots, by `<asset id>:<patches hash>` (the `?patches=` of their html_url). */
  patchSets?: ReadonlyMap<string, PagePatch[]>;
  /** The version's lead forms by step number: what lead submissions are checked against (viewer-gates.form.ts). */
  forms: ReadonlyMap<number, FormStep>;
  /** The demo's reviewed languages and its own (translations-viewer.ts): which payload a viewer's `?lang=` picks. */
  languages?: { languages: readonly string[]; sourceLang: string };
  /** In a translated payload: the translated texts of each captured page, by HTML asset id. */
  pages?: ReadonlyMap<string, PageTranslation>;
}

/** An asset's row as the viewer's asset route reads it, and its bytes once read. */
export interface CachedAsset {
  row: NonNullable<Awaited<ReturnType<DemoReader['assetRow']>>>;
  bytes?: Buffer;
}

/** How many assets the viewer cache keeps, and the largest it keeps (bigger ones are read each time): 64 MiB at most. */
export const ASSET_CACHE_ENTRIES = 64;
export const ASSET_CACHE_MAX_BYTES = 1024 * 1024;
const ASSIGNED_ARMS_MAX = 50_000;

/**
 * What viewer requests read on every hit (the link, its demo's payload, the viewer's session), cached in
 * process. Entries are tagged `share:<id>`, `demo:<id>`, `workspace:<id>` and `session:<id>`, and go when a service announces
 * a change to one of them (core/changes.ts), in this process and every other. The TTL bounds staleness
 * should an announcement be lost.
 */
export class ViewerCache {
  readonly links: GuardedCache<LinkState>;
  readonly payloads: GuardedCache<DemoPayload>;
  readonly sessions: GuardedCache<ViewerSessionRow>;
  /**
   * Assets of published demos served to viewers, by `<demo id>|<asset id>`, tagged `demo:<id>`: at most
   * ASSET_CACHE_ENTRIES of at most ASSET_CACHE_MAX_BYTES each (a few links' first pictures, not every
   * snapshot). An asset row never changes; it is served only while the payload the gates checked names it.
   */
  readonly assets: GuardedCache<CachedAsset>;
  /**
   * A/B arms this process wrote to viewer sessions (session id → arm id), while the session rows cached
   * here still say otherwise. At most ASSIGNED_ARMS_MAX; cleared whole past it (the rows catch up within the TTL).
   */
  private readonly assignedArms = new Map<string, string>();

  constructor(changes: Changes, ttlMs = 30_000) {
    this.links = new GuardedCache(changes, ttlMs, 10_000);
    this.payloads = new GuardedCache(changes, ttlMs, 1_000);
    this.sessions = new GuardedCache(changes, ttlMs, 50_000);
    this.assets = new GuardedCache(changes, ttlMs, ASSET_CACHE_ENTRIES);
  }

  /** The arm this process wrote to the session, if any. */
  assignedArm(sessionId: string): string | undefined {
    return this.assignedArms.get(sessionId);
  }

  rememberArm(sessionId: string, armId: string) {
    if (this.assignedArms.size >= ASSIGNED_ARMS_MAX) this.assignedArms.clear();
    this.assignedArms.set(sessionId, armId);
  }

  close() {
    this.links.close();
    this.payloads.close();
    this.sessions.close();
    this.assets.close();
    this.assignedArms.clear();
  }
}
