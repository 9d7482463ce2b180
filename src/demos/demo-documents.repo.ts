// Queries of whole-demo reads and writes (demo files: export, import, push by key; demo-documents.ts).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { assets, demos, steps } from './demos.tables';

/** The demo of the workspace that a demo file's key names, if any. */
export async function findDemoByKey(db: Executor, workspaceId: string, key: string) {
  const [row] = await db
    .select()
    .from(demos)
    .where(and(eq(demos.workspaceId, workspaceId), eq(demos.key, key)))
    .limit(1);
  return row;
}

/**
 * Serialises the pushes of one key in one workspace until `tx` ends: two CI jobs pushing a new key at once
 * would otherwise both find nothing and both create (the unique index would refuse the second with a 500).
 */
export async function lockKey(tx: Executor, workspaceId: string, key: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`demo-key:${workspaceId}:${key}`}))`);
}

/** Sets or clears a demo's key; the caller checks it is free (the unique index is the backstop). */
export async function setDemoKey(db: Executor, id: string, key: string | null) {
  await db.update(demos).set({ key }).where(eq(demos.id, id));
}

/** The type and digest of assets of one demo, by id, with their bytes or where they are (asset-bytes.ts withBytes). */
export async function listAssets(db: Executor, demoId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: assets.id, contentType: assets.contentType, sha256: assets.sha256, bytes: assets.bytes, blobKey: assets.blobKey })
    .from(assets)
    .where(and(eq(assets.demoId, demoId), inArray(assets.id, ids)));
}

/** The digests and ids of every asset of a demo (without their bytes): a push reuses the ones it already has. */
export async function listAssetDigests(db: Executor, demoId: string) {
  return db.select({ id: assets.id, sha256: assets.sha256, contentType: assets.contentType }).from(assets).where(eq(assets.demoId, demoId));
}

/** Every step row of a demo goes (hotspots by cascade) and no asset with them: the caller decides which stay. */
export async function deleteStepRows(db: Executor, demoId: string) {
  await db.delete(steps).where(eq(steps.demoId, demoId));
}
