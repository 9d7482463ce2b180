// The blobs of DATA_DIR/blobs that a backup carries: read and written by key, each checked against the SHA-256 its key names.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { type BlobStore, digestOfBlobKey } from '../core/blob-store/blob-store';
import { createFilesystemStore } from '../core/blob-store/filesystem-store';

/** Archive entries `blobs/sha256/<hex>`: the key under a folder of its own (77 characters, within tar's 100). */
const PREFIX = 'blobs/';

export const blobEntryName = (key: string) => `${PREFIX}${key}`;

/** The blob key an archive entry holds, or undefined for an entry that is not a blob. */
export const blobKeyOfEntry = (name: string) => (name.startsWith(PREFIX) ? name.slice(PREFIX.length) : undefined);

/** The filesystem store of an embedded instance (ASSET_STORE=filesystem): DATA_DIR/blobs, as the server opens it. */
export const dataDirBlobStore = (dataDir: string) => createFilesystemStore(path.join(dataDir, 'blobs'));

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** True when the bytes are the ones the content address names. */
export function matchesKey(key: string, bytes: Uint8Array): boolean {
  const digest = digestOfBlobKey(key);
  return digest !== undefined && sha256(bytes) === digest;
}

export interface CheckedBlobs {
  /** In the store and intact: each key with its size. */
  present: Array<{ key: string; bytes: number }>;
  /** Named by a row but not in the store. */
  missing: string[];
  /** In the store with bytes that are not the ones their key names (a damaged disk, an edited file). */
  damaged: string[];
}

/**
 * Reads every named blob from the store, one at a time, and checks each against its key; nothing is thrown
 * for a bad one, all are listed. No blob is kept: a backup reads them again as it writes them.
 */
export async function checkNamedBlobs(store: BlobStore, keys: string[]): Promise<CheckedBlobs> {
  const out: CheckedBlobs = { present: [], missing: [], damaged: [] };
  for (const key of keys) {
    const data = await store.get(key);
    if (!data) out.missing.push(key);
    else if (!matchesKey(key, data)) out.damaged.push(key);
    else out.present.push({ key, bytes: data.length });
  }
  return out;
}

/**
 * Puts each blob into the store (the store's own atomic put), one at a time, and reads it back: resolves with
 * how many are in place and intact. A file already there with other bytes (a damaged copy) is replaced,
 * since the store's put keeps a file it finds under the key.
 */
export async function putBlobs(
  store: BlobStore,
  blobs: Array<{ key: string; read: () => Promise<Buffer> }>,
): Promise<{ verified: number; failed: string[] }> {
  let verified = 0;
  const failed: string[] = [];
  for (const { key, read } of blobs) {
    const present = await store.get(key);
    if (present && !matchesKey(key, present)) await store.delete(key);
    await store.put(key, await read(), 'application/octet-stream');
    const back = await store.get(key);
    if (back && matchesKey(key, back)) verified++;
    else failed.push(key);
  }
  return { verified, failed };
}

/** A short list for a message: the first few keys, and how many more. */
export function listKeys(keys: string[], shown = 5): string {
  const head = keys.slice(0, shown).join(', ');
  return keys.length > shown ? `${head} and ${keys.length - shown} more` : head;
}
