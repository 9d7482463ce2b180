// The asset store of ASSET_STORE, built from the configuration: none (bytes in the database), a folder or a bucket.
import { join } from 'node:path';
import type { Config } from './config';
import type { BlobStore } from './core/blob-store/blob-store';
import { createFilesystemStore } from './core/blob-store/filesystem-store';
import { createS3Store } from './core/blob-store/s3-store';

/**
 * The blob store that new assets' bytes go to, or undefined for ASSET_STORE=database (bytes in their rows).
 * Builds a client; connects to nothing until the first request.
 *
 * @example
 * ```ts
 * import { testConfig } from './config';
 * import { assetStoreOf } from './asset-store';
 *
 * assetStoreOf(testConfig({ ASSET_STORE: 'database' })); // undefined: the database keeps the bytes
 * assetStoreOf(testConfig({ ASSET_STORE: 'filesystem', DATA_DIR: '/var/lib/demoshare' }))?.kind; // 'filesystem'
 * ```
 */
export function assetStoreOf(config: Config): BlobStore | undefined {
  switch (config.ASSET_STORE) {
    case 'database':
      return undefined;
    case 'filesystem':
      return createFilesystemStore(join(config.DATA_DIR, 'blobs'));
    case 's3':
      return createS3Store({
        bucket: config.S3_BUCKET!,
        endpoint: config.S3_ENDPOINT,
        region: config.S3_REGION,
        accessKeyId: config.S3_ACCESS_KEY_ID,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
        prefix: config.S3_PREFIX,
        timeoutMs: config.S3_TIMEOUT,
      });
  }
}
