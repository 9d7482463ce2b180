// The asset store's port: content-addressed blobs kept outside the database (filesystem or S3), and its one failure.
import { AppError } from '../errors';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../http/error-handler';

/** Where assets' bytes live (ASSET_STORE): in their database rows, or in a blob store. */
export type AssetStoreKind = 'database' | 'filesystem' | 's3';

/**
 * A store of immutable blobs by key. Keys are content addresses (`sha256/<hex>`, blobKeyOf): the same bytes
 * always get the same key, so a put of bytes already there is harmless and two writers never disagree.
 *
 * @example
 * ```ts
 * import { blobKeyOf, type BlobStore } from './blob-store';
 *
 * declare const store: BlobStore, png: Buffer;
 * const key = blobKeyOf(png);
 * await store.put(key, png, 'image/png'); // durable once it resolves
 * (await store.get(key))?.equals(png); // true
 * ```
 */
export interface BlobStore {
  readonly kind: Exclude<AssetStoreKind, 'database'>;
  /**
   * Stores the bytes under the key; resolves once they are durable. Bytes already there are kept and their
   * time renewed (a collector of unnamed blobs spares recent ones). A failure is AppError `unavailable`.
   */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes under the key, or undefined when there are none. A failure is AppError `unavailable`. */
  get(key: string): Promise<Buffer | undefined>;
  exists(key: string): Promise<boolean>;
  /** Removes the key's bytes; nothing there is not an error. */
  delete(key: string): Promise<void>;
  /** Every blob with the time of its last put, a page at a time, in no set order (the collector's walk). */
  list(): AsyncIterable<BlobListing[]>;
  /**
   * The collector's delete: removes the blob only if its last put was before `before`, and answers whether
   * it did. A put of the same bytes that races it must never lose them (filesystem-store.ts says how).
   */
  sweep(key: string, before: Date): Promise<boolean>;
  /**
   * A store that can hand out addresses of its own (S3): a GET address of the blob, signed with the store's
   * credentials, valid from `signedAt` for `expiresInSeconds`; anyone holding it reads the bytes directly until
   * then. Signing is local (no request to the store). Absent on the filesystem store.
   */
  presignGet?(key: string, options: PresignOptions): Promise<string>;
  /** Lets go of connections and timers (the runtime's close). */
  close(): Promise<void>;
}

/** How a presigned address is signed (BlobStore `presignGet`). */
export interface PresignOptions {
  /** How long the address is valid, from `signedAt`. */
  expiresInSeconds: number;
  /** The signing time; addresses signed with the same time and key are the same (caches can reuse them). */
  signedAt: Date;
  /** The Cache-Control the store answers the GET with (S3 `response-cache-control`). */
  cacheControl?: string;
}

/** One blob as the store lists it. */
export interface BlobListing {
  key: string;
  /** Its last put (a put of bytes already there renews it). */
  modifiedAt: Date;
}

const DIGEST = /^[0-9a-f]{64}$/;

/**
 * The content address of a blob from its SHA-256 digest (hex): what an asset row keeps in `blob_key`.
 *
 * @example
 * ```ts
 * import { blobKeyOfDigest } from './blob-store';
 *
 * blobKeyOfDigest('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'); // 'sha256/e3b0c442…'
 * ```
 */
export function blobKeyOfDigest(sha256: string): string {
  if (!DIGEST.test(sha256)) throw new Error(`not a SHA-256 digest in hex: ${sha256}`);
  return `sha256/${sha256}`;
}

/** The digest a key names, or undefined for a key that is not a content address (refused by every backend). */
export function digestOfBlobKey(key: string): string | undefined {
  const digest = key.startsWith('sha256/') ? key.slice('sha256/'.length) : '';
  return DIGEST.test(digest) ? digest : undefined;
}

/**
 * The 503 of a store that cannot be reached or refuses to write: like the database's, a retry after a few
 * seconds may succeed, and nothing was referenced (the blob is written before its row).
 *
 * @example
 * ```ts
 * import { storeUnavailable } from './blob-store';
 *
 * throw storeUnavailable('write', new Error('connect ECONNREFUSED 127.0.0.1:9000'));
 * ```
 */
export function storeUnavailable(doing: 'read' | 'write' | 'delete', cause: unknown): AppError {
  return new AppError('unavailable', `The asset store could not ${doing} for the moment; retry in a few seconds`, {
    headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    cause,
  });
}

/** The start of `blobMissing`'s message, by which the error handler tells lost bytes from an outage. */
export const BLOB_MISSING = 'The asset store does not hold';

/**
 * The 503 of an asset whose row names a blob the store does not have: its bytes were lost from the store
 * (files not copied with DATA_DIR, a bucket emptied) or ASSET_STORE names another store. The server's fault,
 * not the caller's, and no retry will help until the operator restores it, so no Retry-After; the log names
 * the asset and its key (`cause`).
 *
 * @example
 * ```ts
 * import { blobMissing } from './blob-store';
 *
 * throw blobMissing(new Error('asset asset_01j…: blob sha256/9f86… is missing from the filesystem store'));
 * ```
 */
export function blobMissing(cause: Error): AppError {
  return new AppError('unavailable', `${BLOB_MISSING} this asset's bytes: the server's log names it for the operator`, { cause });
}

