// The read side of demos, apart from the writes: the rendered detail of GET /v1/demos/:id is cached and served only while the demo's revision and brand colour still match.
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { notFound } from '../core/errors';
import { GuardedCache } from '../core/guarded-cache';
import type { Database } from '../db/client';
import { sameSnapshot, snapshotOf } from './demo-snapshot';
import * as repo from './demos.repo';
import type { DemoStatus } from './demos.tables';

/** One demo's share_url link: the oldest that is neither revoked nor expired. */
export interface FirstLink {
  token: string;
  expiresAt: Date | null;
}

/** The port through which demos read their share links (implemented by shares/share-links.ts). */
export interface DemoLinks {
  firstActive(demoIds: readonly string[]): Promise<Map<string, FirstLink>>;
}

export interface DemoReadsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Changes;
  links: DemoLinks;
}

/** A demo's detail as rendered for GET /v1/demos/:id, and until when it stays right on its own. */
interface RenderedDetail {
  json: string;
  /** The demo's revision and brand colour read before it was loaded (`findDemoVersion`). */
  revision: number;
  brandColor: string | null;
  /** When its share_url link expires and share_url moves to the next link; null when it never does. */
  staleAt: Date | null;
}

/** The read side of demos: the list, one demo, and its rendered detail, cached until a change is announced. */
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
    const [links, latest] = await Promise.all([deps.links.firstActive([id]), repo.latestVersion(db, id)]);
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
   * Rendered details, per workspace and demo id. An entry goes when its demo (its steps, hotspots, versions,
   * links, generation) or its workspace (the brand colour) is announced as changed, in any process. Bounded:
   * about 10 KB each.
   */
  const details = new GuardedCache<RenderedDetail>(deps.changes, 10 * 60_000, 1_000, deps.clock);

  /**
   * The demo rendered by `render`, from the cache until a change to it is announced; a miss loads the demo,
   * its steps, hotspots and links. A load overtaken by any change is served but not kept. Every read first
   * looks up the demo's revision (one primary-key lookup), so a write to the demo committed by any process
   * is seen by the next read in every process, without waiting for the bus; a change to its share links
   * (share_url) reaches other processes through the bus's announcement.
   */
  async function getRendered(auth: AuthContext, id: string, render: (found: Loaded) => string): Promise<string> {
    const version = await repo.findDemoVersion(db, auth.workspaceId, id);
    if (!version) throw notFound('Demo');
    const detail = await details.load(
      `${auth.workspaceId}:${id}`,
      () => [tags.demo(id), tags.workspace(auth.workspaceId)],
      async () => {
        // The version is the one read before this load: a write in between leaves a stale stamp, which
        // only costs one more load on the next read, never a stale body served.
        const { shareExpiresAt, ...found } = await load(auth, id);
        return { json: render(found), staleAt: shareExpiresAt, ...version };
      },
      (rendered) => rendered.staleAt,
      (rendered) => rendered.revision === version.revision && rendered.brandColor === version.brandColor,
    );
    // `load` throws for a demo that is not there: a detail is always found.
    return detail!.json;
  }

  return { list, get, getRendered };
}
