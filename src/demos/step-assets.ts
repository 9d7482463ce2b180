// Step images and HTML snapshots stored as assets of their demo (editor uploads, generation, recordings).
import { AppError } from '../core/errors';
import { sha256Hex } from '../core/crypto';
import { newId } from '../core/ids';
import { sniffImage } from '../core/image-sniff';
import type { Executor } from '../db/client';
import type { DemoRow } from './demos.repo';
import * as repo from './demos.repo';

/** Stores uploaded bytes as an asset of the demo, once they prove to be a PNG, JPEG or WebP image. */
export async function storeImage(tx: Executor, demo: Pick<DemoRow, 'id' | 'workspaceId'>, bytes: Buffer, now: Date) {
  const info = sniffImage(bytes);
  if (!info) {
    throw new AppError('unsupported_media_type', 'The body is not a PNG, JPEG or WebP image (checked from its bytes)');
  }
  const id = await storeAsset(tx, demo, { contentType: info.contentType, bytes }, now);
  return { id, ...info };
}

/** Stores an HTML snapshot (already sanitised) as an asset of the demo. */
export async function storeHtml(tx: Executor, demo: Pick<DemoRow, 'id' | 'workspaceId'>, html: string, now: Date) {
  return { id: await storeAsset(tx, demo, { contentType: 'text/html; charset=utf-8', bytes: Buffer.from(html, 'utf8') }, now) };
}

/** Bytes that are to become an asset, and their type. */
export interface NewAsset {
  contentType: string;
  bytes: Buffer;
}

/** Stores bytes whose type is known as an asset of the demo; returns its id. */
export async function storeAsset(tx: Executor, demo: Pick<DemoRow, 'id' | 'workspaceId'>, asset: NewAsset, now: Date) {
  const id = newId('asset');
  await repo.insertAsset(tx, {
    id,
    workspaceId: demo.workspaceId,
    demoId: demo.id,
    contentType: asset.contentType,
    bytes: asset.bytes,
    size: asset.bytes.length,
    sha256: sha256Hex(asset.bytes),
    createdAt: now,
  });
  return id;
}
