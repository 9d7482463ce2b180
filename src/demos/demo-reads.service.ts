import type { AuthContext } from '../auth/permissions';
import { TaggedCache } from '../core/cache';
import { notFound } from '../core/errors';
import type { Database } from '../db/client';
import { sameSnapshot, snapshotOf } from './demo-snapshot';
import * as versions from './demo-versions.repo';
import * as repo from './demos.repo';
import type { DemoStatus } from './demos.tables';

/** One demo's share_url link: the oldest that is neither revoked nor expired. */
export interface FirstLink {
  token: string;
  expiresAt: Date | null;
}

export interface DemoLinks {
  firstActive(demoIds: readonly string[]): Promise<Map<string, FirstLink>>;
}

export interface DemoReadsDeps {
  database: Pick<Database, 'db'>;
  links: DemoLinks;
}

/** The read side of demos: the list, one demo, and its rendered detail cached per revision. */
export function createDemoReads(deps: DemoReadsDeps) {
  const { db } = deps.database;

  async function list(
    auth: AuthContext,
    filter: { status?: DemoStatus; search?: string },
    page: { limit: number; offset: number },
  ) {
    const { rows, total } = await repo.listDemos(
      db,
      auth.workspaceId,
      { status: filter.status, search: filter.search || undefined },
      page,
    );
    const links = rows.length > 0 ? await deps.links.firstActive(rows.map((r) => r.demo.id)) : new Map<string, FirstLink>();
    return { rows: rows.map((r) => ({ ...r, shareToken: links.get(r.demo.id)?.token ?? null })), total };
  }

  async function load(auth: AuthContext, id: string) {
    const found = await repo.loadDemo(db, auth.workspaceId, id);
    if (!found) throw notFound('Demo');
    // Read after the demo: a link changed in between bumps the revision past the one kept with this read.
    const [links, latest] = await Promise.all([deps.links.firstActive([id]), versions.latestVersion(db, id)]);
    const link = links.get(id);
    const publishing = {
      latestVersion: latest?.number ?? null,
      hasUnpublishedChanges:
        found.demo.status === 'published' && (!latest || !sameSnapshot(latest.snapshot, snapshotOf(found))),
    };
    return { ...found, publishing, shareToken: link?.token ?? null, shareExpiresAt: link?.expiresAt ?? null };
  }

  async function get(auth: AuthContext, id: string) {
    const { shareExpiresAt: _, ...found } = await load(auth, id);
    return found;
  }

  type Loaded = Awaited<ReturnType<typeof get>>;
  /**
   * Rendered details by demo id, each good for one revision, and until its share link expires (share_url
   * then moves to the next link). Bounded: about 10 KB each.
   */
  const details = new TaggedCache<{ revision: number; brandColor: string | null; staleAt: number; json: string }>(
    10 * 60_000,
    1_000,
  );

  /**
   * The demo rendered by `render`, from the cache while the demo's revision is the one it was rendered at.
   * The check is one primary-key lookup, so a write made through any process is seen by the next read
   * everywhere; only a miss loads the steps, hotspots and links.
   */
  async function getRendered(auth: AuthContext, id: string, render: (found: Loaded) => string): Promise<string> {
    const version = await repo.findDemoVersion(db, auth.workspaceId, id);
    if (!version) throw notFound('Demo');
    const hit = details.get(id);
    // The brand colour is read with the revision: a workspace's new colour shows in its demos at once.
    const fresh = hit && hit.revision === version.revision && hit.brandColor === version.brandColor;
    if (fresh && hit.staleAt > Date.now()) return hit.json;
    const { shareExpiresAt, ...found } = await load(auth, id);
    const json = render(found);
    // Stored at the revision it was read at: a write in between leaves it stale, and the next read reloads.
    details.set(id, {
      revision: found.demo.revision,
      brandColor: found.brandColor,
      staleAt: shareExpiresAt?.getTime() ?? Infinity,
      json,
    });
    return json;
  }

  return { list, get, getRendered };
}
