// The read side of demos, apart from the writes: the rendered detail of GET /v1/demos/:id is cached until a change to the demo or its workspace is announced.
import type { SQL } from 'drizzle-orm';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import type { PageWindow } from '../core/pagination';
import { notFound } from '../core/errors';
import { GuardedCache } from '../core/guarded-cache';
import type { Database } from '../db/client';
import type { ReadRouting } from '../db/read-replica';
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
  /**
   * The same link's token as a correlated subquery on a demo id of the caller's statement: the list folds
   * it into its page query (one statement) while the links' table stays the shares module's.
   */
  firstActiveToken(demoId: SQL): SQL<string | null>;
}

export interface DemoReadsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Changes;
  links: DemoLinks;
  /** Where the list is read (the replica when fit, db/read-replica.ts); absent: `database`. */
  reads?: Pick<ReadRouting, 'reader'>;
}

/** A demo's detail as rendered for GET /v1/demos/:id, and until when it stays right on its own. */
interface RenderedDetail {
  json: string;
  /** When its share_url link expires and share_url moves to the next link; null when it never does. */
  staleAt: Date | null;
}

/** The read side of demos: the list, one demo, and its rendered detail, cached until a change is announced. */
export function createDemoReads(deps: DemoReadsDeps) {
  const { db } = deps.database;

  /** A page of the workspace's demos with step counts, latest versions, share_url tokens and the total: one query. */
  function list(auth: AuthContext, filter: { status?: DemoStatus; search?: string }, window: PageWindow) {
    const from = deps.reads?.reader(auth.workspaceId) ?? db;
    return repo.listDemos(from, auth.workspaceId, { status: filter.status, search: filter.search || undefined }, window, deps.links.firstActiveToken);
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
   * its steps, hotspots and links. A hit costs no query: every write to the demo, its steps, hotspots,
   * versions, links or generation, and to its workspace (the brand colour) announces its tag after the
   * commit, heard here at once and in other processes through the bus, as the credential cache and the
   * viewer's payload rely on. A load overtaken by any change is served but not kept, and while the bus is
   * cut off nothing is served from the cache (GuardedCache).
   */
  async function getRendered(auth: AuthContext, id: string, render: (found: Loaded) => string): Promise<string> {
    const detail = await details.load(
      `${auth.workspaceId}:${id}`,
      () => [tags.demo(id), tags.workspace(auth.workspaceId)],
      async () => {
        const { shareExpiresAt, ...found } = await load(auth, id);
        return { json: render(found), staleAt: shareExpiresAt };
      },
      (rendered) => rendered.staleAt,
    );
    // `load` throws for a demo that is not there: a detail is always found.
    return detail!.json;
  }

  return { list, get, getRendered };
}
