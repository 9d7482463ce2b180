// A workspace's share links, as the routes and MCP use them: one file per verb that changes a link (shares.<verb>.ts).
import type { AuthContext } from '../auth/permissions';
import type { Changes } from '../core/changes';
import type { Clock } from '../core/clock';
import { notFound } from '../core/errors';
import type { Database } from '../db/client';
import type { DemoReader } from '../demos/demos.reader';
import type { ShareDefaults } from '../workspaces/workspaces.service';
import type { LinkViewers } from './link-viewers';
import { create } from './shares.create';
import * as repo from './shares.repo';
import { revoke } from './shares.revoke';
import { requireDemo } from './shares.rules';
import { update } from './shares.update';
import type { ReadRouting } from '../db/read-replica';

export interface SharesDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
  demos: Pick<DemoReader, 'find' | 'lock' | 'asset'>;
  /** The workspace's defaults for what a new link's request leaves out. */
  shareDefaults(workspaceId: string): Promise<ShareDefaults>;
  /** The links' viewer sessions and access log (the viewing domain's): read when called. */
  readonly viewers: LinkViewers;
  /** List pages read here: the replica when it is fit (db/read-replica.ts), else the primary. */
  reads?: Pick<ReadRouting, 'reader'>;
}

/**
 * Share links and their management: create, list, get, change, revoke, and a link's access log. The
 * verbs that change a link live in their own files and take these deps first; this binds them.
 *
 * @example
 * const shares = createSharesService({ ...kernel, demos: demos.reader, shareDefaults, viewers });
 * const link = await shares.create(auth, demoId, { name: 'Acme', expiresAt: null }, actor);
 * await shares.revoke(auth, link.id, actor);
 */
export function createSharesService(deps: SharesDeps) {
  const { db } = deps.database;

  /** The demo's active links, oldest first. */
  async function list(auth: AuthContext, demoId: string) {
    await requireDemo(deps, auth, demoId);
    return repo.listShares(deps.reads?.reader(auth.workspaceId) ?? db, demoId);
  }

  async function get(auth: AuthContext, id: string) {
    const share = await repo.findShare(db, auth.workspaceId, id);
    if (!share) throw notFound('Share');
    return share;
  }

  /** A page of the link's access log (revoked links too), from the viewing domain's records. */
  async function accessLog(auth: AuthContext, id: string, page: { limit: number; offset: number }) {
    const share = await repo.findShareEvenRevoked(db, auth.workspaceId, id);
    if (!share) throw notFound('Share');
    return deps.viewers.accessLog(share.id, page);
  }

  return {
    create: (...args: Tail<Parameters<typeof create>>) => create(deps, ...args),
    list,
    get,
    update: (...args: Tail<Parameters<typeof update>>) => update(deps, ...args),
    revoke: (...args: Tail<Parameters<typeof revoke>>) => revoke(deps, ...args),
    accessLog,
  };
}

type Tail<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;

export type SharesService = ReturnType<typeof createSharesService>;
