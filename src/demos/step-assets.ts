// Step images and HTML snapshots stored as assets of their demo (editor uploads, generation, recordings).
import { AppError } from '../core/errors';
import { newId } from '../core/ids';
import { sniffImage } from '../core/image-sniff';
import type { Executor } from '../db/client';
import { type AssetStore, type NewAsset, type PlacedAsset, placeBytes, placeStoredBytes, type StoredBytes } from './asset-bytes';
import type { DemoRow } from './demos.repo';
import * as repo from './demos.repo';

export type { NewAsset } from './asset-bytes';

/** An uploaded image put in the asset store, once its bytes prove to be a PNG, JPEG or WebP image. */
export async function placeImage(store: AssetStore, bytes: Buffer) {
  const info = sniffImage(bytes);
  if (!info) {
    throw new AppError('unsupported_media_type', 'The body is not a PNG, JPEG or WebP image (checked from its bytes)');
  }
  return { placed: await placeBytes(store, { contentType: info.contentType, bytes }), ...info };
}

/** Stores uploaded bytes as an asset of the demo, once they prove to be a PNG, JPEG or WebP image. */
export async function storeImage(tx: Executor, store: AssetStore, demo: Pick<DemoRow, 'id' | 'workspaceId'>, bytes: Buffer, now: Date) {
  const { placed, ...info } = await placeImage(store, bytes);
  return { id: await insertPlacedAsset(tx, demo, placed, now), ...info };
}

/** The type a step's HTML snapshot is stored (and served) as. */
export const HTML_ASSET_TYPE = 'text/html; charset=utf-8';

/** Stores an HTML snapshot (already sanitised) as an asset of the demo. */
export async function storeHtml(tx: Executor, store: AssetStore, demo: Pick<DemoRow, 'id' | 'workspaceId'>, html: string, now: Date) {
  return { id: await storeAsset(tx, store, demo, { contentType: HTML_ASSET_TYPE, bytes: Buffer.from(html, 'utf8') }, now) };
}

/** Stores bytes whose type is known as an asset of the demo (the blob first, then its row); returns its id. */
export async function storeAsset(tx: Executor, store: AssetStore, demo: Pick<DemoRow, 'id' | 'workspaceId'>, asset: NewAsset, now: Date) {
  return insertPlacedAsset(tx, demo, await placeBytes(store, asset), now);
}

/**
 * Bytes already in the database (a recorded step's) as an asset of the demo, their type and size as read when
 * they were stored: copied inside the database, or put in the blob store. Returns the asset's id.
 */
export async function storeStoredBytes(tx: Executor, store: AssetStore, demo: Pick<DemoRow, 'id' | 'workspaceId'>, stored: StoredBytes, now: Date) {
  return insertPlacedAsset(tx, demo, await placeStoredBytes(tx, store, stored), now);
}

/** The row of bytes already placed (placeBytes, placeImage, placeStoredBytes): an asset of the demo; returns its id. */
export async function insertPlacedAsset(tx: Executor, demo: Pick<DemoRow, 'id' | 'workspaceId'>, placed: PlacedAsset, now: Date) {
  const id = newId('asset');
  await repo.insertAsset(tx, { id, workspaceId: demo.workspaceId, demoId: demo.id, ...placed, createdAt: now });
  return id;
}
