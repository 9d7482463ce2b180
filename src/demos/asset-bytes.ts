// Where an asset's bytes are: in its row (ASSET_STORE=database, and assets from before a change) or in the blob store.
import type { SQL } from 'drizzle-orm';
import { blobKeyOfDigest, type BlobStore, blobMissing, storeUnavailable } from '../core/blob-store/blob-store';
import { sha256Hex } from '../core/crypto';
import type { Executor } from '../db/client';
import * as repo from './demos.repo';

/** The blob store of new assets' bytes, or undefined when they go in their rows (the kernel's `assetStore`). */
export type AssetStore = BlobStore | undefined;

/** Bytes that are to become an asset, and their type. */
export interface NewAsset {
  contentType: string;
  bytes: Buffer;
}

/**
 * Bytes already in the database (a recorded step's, in its upload row), with what is known of them: an asset
 * made of them copies them inside the database (ASSET_STORE=database) instead of reading them out and
 * writing them back. `select` is a scalar subquery that yields them.
 */
export interface StoredBytes {
  select: SQL;
  contentType: string;
  size: number;
  sha256: string;
}

/** An asset's bytes once put where they belong, and the fields of its row that find them. */
export interface PlacedBytes {
  contentType: string;
  size: number;
  sha256: string;
  /** In the row (no blob store) or null (in the store under blobKey). */
  bytes: Buffer | null;
  blobKey: string | null;
}

/**
 * Puts the bytes in the blob store, if there is one, before any row names them: a store that fails throws
 * AppError `unavailable` (503) and nothing refers to a blob that is not there. A blob put whose row is then
 * never written (the transaction failed) is only unreferenced, never wrong: keys are content addresses.
 *
 * @example
 * ```ts
 * import { placeBytes } from './asset-bytes';
 * import type { BlobStore } from '../core/blob-store/blob-store';
 *
 * declare const store: BlobStore;
 * const placed = await placeBytes(store, { contentType: 'text/html; charset=utf-8', bytes: Buffer.from('<p>hi</p>') });
 * placed.blobKey; // 'sha256/…'; placed.bytes: null
 * ```
 */
export async function placeBytes(store: AssetStore, asset: NewAsset): Promise<PlacedBytes> {
  const sha256 = sha256Hex(asset.bytes);
  const base = { contentType: asset.contentType, size: asset.bytes.length, sha256 };
  if (!store) return { ...base, bytes: asset.bytes, blobKey: null };
  const blobKey = blobKeyOfDigest(sha256);
  await store.put(blobKey, asset.bytes, asset.contentType);
  return { ...base, bytes: null, blobKey };
}

/**
 * Bytes already in the database as an asset's row fields: copied there by the row's INSERT (no blob store),
 * or read once and put in the blob store. The caller's transaction keeps them where `select` finds them.
 */
export async function placeStoredBytes(db: Executor, store: AssetStore, stored: StoredBytes): Promise<PlacedAsset> {
  const base = { contentType: stored.contentType, size: stored.size, sha256: stored.sha256 };
  if (!store) return { ...base, bytes: stored.select, blobKey: null };
  const bytes = await repo.readStoredBytes(db, stored.select);
  if (!bytes) throw new Error(`stored bytes (${stored.sha256}) vanished under their lock`);
  return placeBytes(store, { contentType: stored.contentType, bytes });
}

/** What an asset row is written with: placed bytes, or the subquery that copies bytes already stored. */
export type PlacedAsset = Omit<PlacedBytes, 'bytes'> & { bytes: Buffer | SQL | null };

/** An asset row's bytes, wherever they are. */
export async function bytesOf(store: AssetStore, row: { id: string; bytes: Buffer | null; blobKey: string | null }): Promise<Buffer> {
  if (row.bytes) return row.bytes;
  if (!store) {
    throw storeUnavailable(
      'read',
      new Error(`asset ${row.id} is in a blob store (${row.blobKey}) but ASSET_STORE is database: set it back (docs/object-storage.md)`),
    );
  }
  const bytes = await store.get(row.blobKey!);
  // A row is written only after its blob, and garbage collection spares named blobs: this is lost data.
  if (!bytes) throw blobMissing(new Error(`asset ${row.id}: blob ${row.blobKey} is missing from the ${store.kind} store`));
  return bytes;
}

/** Asset rows with their bytes read from wherever they are. */
export type LoadedAsset<T> = Omit<T, 'bytes'> & { bytes: Buffer };

/** Fills in the bytes of asset rows (at most 8 reads from the store at once). */
export async function withBytes<T extends { id: string; bytes: Buffer | null; blobKey: string | null }>(
  store: AssetStore,
  rows: T[],
): Promise<LoadedAsset<T>[]> {
  const out: LoadedAsset<T>[] = new Array(rows.length);
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const i = next++;
      out[i] = { ...rows[i]!, bytes: await bytesOf(store, rows[i]!) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, rows.length) }, worker));
  return out;
}

/**
 * An asset of one demo with its bytes, or undefined; the demo's workspace is checked by the caller.
 *
 * @example
 * ```ts
 * import { loadAsset } from './asset-bytes';
 * import type { Executor } from '../db/client';
 *
 * declare const db: Executor;
 * const asset = await loadAsset(db, undefined, 'demo_01j…', 'asset_01j…');
 * asset?.bytes.length;
 * ```
 */
export async function loadAsset(db: Executor, store: AssetStore, demoId: string, id: string) {
  const row = await repo.findAsset(db, demoId, id);
  return row ? { ...row, bytes: await bytesOf(store, row) } : undefined;
}
