// The demos domain's answers for other domains (shares, viewing, analytics): the only way they read demos.
import type { Database, Executor } from '../db/client';
import { type AssetStore, bytesOf, loadAsset } from './asset-bytes';
import { type DemoContent, rowsOf } from './demo-snapshot';
import * as versions from './demo-versions.repo';
import * as repo from './demos.repo';

/**
 * What other domains may ask of demos, and nothing more: shares, viewing and analytics take the few
 * functions they need from here (as `Pick<DemoReader, ...>`) instead of importing the repository whole.
 *
 * @example
 * ```ts
 * // In a module that names 'demos' in `needs`:
 * const reader: Pick<DemoReader, 'find' | 'state'> = deps.demos.reader;
 * const found = await reader.find(auth.workspaceId, demoId); // undefined outside the workspace
 * const state = await reader.state(demoId); // { status, version, stepCount } for the viewer's gates
 * ```
 */
export function createDemoReader(database: Pick<Database, 'db'>, assetStore?: AssetStore) {
  const { db } = database;
  return {
    /** A demo of the workspace with its step count; undefined for a demo of another workspace. */
    find: (workspaceId: string, id: string) => repo.findDemo(db, workspaceId, id),
    /** Locks the demo row for the rest of `tx`; undefined when it does not exist in the workspace. */
    lock: (tx: Executor, workspaceId: string, id: string) => repo.lockDemo(tx, workspaceId, id),
    /**
     * Published or not, the version viewers are served and its number of steps: the viewer's gates and
     * its step-number rule.
     */
    state: (id: string) => repo.findDemoState(db, id),
    /**
     * The version viewers are served (the newest, or version `number`: an A/B test arm's pinned one), as
     * rows, for rendering it elsewhere (the viewer payload); never the draft. Undefined for a demo never
     * published, or without that version. `from`: where to read it (the viewer's payload may read a replica).
     */
    published: async (
      workspaceId: string,
      id: string,
      number?: number,
      from: Executor = db,
    ): Promise<(DemoContent & { version: number }) | undefined> => {
      const found = await repo.findDemo(from, workspaceId, id);
      if (!found) return undefined;
      const latest = number === undefined ? await repo.latestVersion(from, id) : await versions.findVersion(from, id, number);
      if (!latest) return undefined;
      const rows = rowsOf(id, latest.snapshot, latest.publishedAt);
      return {
        demo: { id, title: latest.snapshot.title, configuration: latest.snapshot.configuration },
        ...rows,
        version: latest.number,
      };
    },
    /** A demo's draft as the editor holds it (steps, hotspots, chapters); undefined outside the workspace. */
    draft: (workspaceId: string, id: string) => repo.loadDemo(db, workspaceId, id),
    /** Steps of a version of the demo (the newest without `number`); undefined when there is none. */
    versionStepCount: async (demoId: string, number?: number) => {
      const found = number === undefined ? await repo.latestVersion(db, demoId) : await versions.findVersion(db, demoId, number);
      return found?.stepCount;
    },
    /** Step titles of a version, in order (index 0 is step 1); undefined when there is no such version. */
    versionStepTitles: async (demoId: string, number: number) => {
      const found = await versions.findVersion(db, demoId, number);
      return found?.snapshot.steps.map((s) => s.title);
    },
    /**
     * A version's frozen content (the newest without `number`) with its number, for naming what analytics
     * counted (chapters, buttons, hotspots, forms); undefined when there is none.
     */
    versionSnapshot: async (demoId: string, number?: number) => {
      const found = number === undefined ? await repo.latestVersion(db, demoId) : await versions.findVersion(db, demoId, number);
      return found ? { number: found.number, snapshot: found.snapshot } : undefined;
    },
    /** An asset of one demo, with its bytes from wherever they are (the row or the asset store). */
    asset: (demoId: string, assetId: string) => loadAsset(db, assetStore, demoId, assetId),
    /** An asset's row without reading its bytes from the store (`bytes` is null when they are in a blob store). */
    assetRow: (demoId: string, assetId: string) => repo.findAsset(db, demoId, assetId),
    /** The bytes of a row `assetRow` answered, from wherever they are. */
    assetBytes: (row: { id: string; bytes: Buffer | null; blobKey: string | null }) => bytesOf(assetStore, row),
    /** Where assets of one demo are (type, digest, blob key; never their bytes), for naming them elsewhere (a CDN). */
    assetPlaces: (demoId: string, ids: readonly string[], from: Executor = db) => repo.findAssetPlaces(from, demoId, ids),
    /** The image assets (of any demo) whose bytes have this SHA-256 (hex), in a blob store or in their rows; ids only. */
    imagesByDigest: (sha256: string) => repo.findImagesByDigest(db, sha256),
  };
}

/** The port other domains read demos through: see {@link createDemoReader}. */
export type DemoReader = ReturnType<typeof createDemoReader>;
