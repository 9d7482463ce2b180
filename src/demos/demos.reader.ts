import type { Database, Executor } from '../db/client';
import * as repo from './demos.repo';

/**
 * What other domains may ask of demos, and nothing more: shares, views and the viewer take the few
 * functions they need from here (as `Pick<DemoReader, ...>`) instead of importing the repository whole.
 */
export function createDemoReader(database: Pick<Database, 'db'>) {
  const { db } = database;
  return {
    /** A demo of the workspace with its step count; undefined for a demo of another workspace. */
    find: (workspaceId: string, id: string) => repo.findDemo(db, workspaceId, id),
    /** Locks the demo row for the rest of `tx`; undefined when it does not exist in the workspace. */
    lock: (tx: Executor, workspaceId: string, id: string) => repo.lockDemo(tx, workspaceId, id),
    /** Call in the transaction that changes the demo's links: cached details of the demo go stale. */
    linksChanged: (tx: Executor, id: string) => repo.bumpRevision(tx, id),
    /** Published or not, and the number of steps: the viewer's gates and its step-number rule. */
    state: (id: string) => repo.findDemoState(db, id),
    /** The demo with its steps and hotspots, for rendering it elsewhere (the viewer payload). */
    content: (workspaceId: string, id: string) => repo.loadDemo(db, workspaceId, id),
    /** An asset of one demo. */
    asset: (demoId: string, assetId: string) => repo.findAsset(db, demoId, assetId),
  };
}

export type DemoReader = ReturnType<typeof createDemoReader>;
