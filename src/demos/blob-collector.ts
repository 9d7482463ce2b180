// The asset store's garbage collector: blobs no asset names any more (a deleted demo's, a replaced picture's).
import type { BlobStore } from '../core/blob-store/blob-store';
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';
import { namedBlobKeys } from './blob-collector.repo';

export interface BlobCollectorDeps {
  database: Pick<Database, 'db'>;
  assetStore: BlobStore;
  clock: Clock;
  /** ASSET_GC_GRACE: a blob last put more recently is never a candidate. */
  graceMs: number;
}

export interface Collection {
  /** Blobs the store listed. */
  listed: number;
  /** Of those, old enough and named by no asset. */
  unnamed: number;
  /** Deleted: unnamed ones not put again before their turn came. */
  deleted: number;
}

/**
 * Walks the store a page at a time and deletes each blob that is older than the grace period and named by
 * no asset. Why a blob being uploaded again is safe: uploads put the blob before the row that names it, and
 * a put renews the blob's time; `sweep` deletes only a blob whose time is still past the grace period at the
 * moment of deletion. The grace period covers the time from a put to its row's commit (an upload's or a
 * generation's transaction), so a blob whose row has not committed yet is always recent.
 *
 * @example
 * ```ts
 * const { deleted } = await collectBlobs({ database, assetStore, clock, graceMs: 24 * 3_600_000 });
 * ```
 */
export async function collectBlobs(deps: BlobCollectorDeps): Promise<Collection> {
  const before = new Date(deps.clock.now().getTime() - deps.graceMs);
  const totals: Collection = { listed: 0, unnamed: 0, deleted: 0 };
  for await (const page of deps.assetStore.list()) {
    totals.listed += page.length;
    const old = page.filter((blob) => blob.modifiedAt < before).map((blob) => blob.key);
    const named = await namedBlobKeys(deps.database.db, old);
    for (const key of old) {
      if (named.has(key)) continue;
      totals.unnamed++;
      if (await deps.assetStore.sweep(key, before)) totals.deleted++;
    }
  }
  return totals;
}
