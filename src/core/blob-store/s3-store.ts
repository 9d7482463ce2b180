// Blobs in any S3-compatible bucket (AWS S3, MinIO, R2) through the AWS SDK v3 client.
import type { S3Client } from '@aws-sdk/client-s3';
import { type BlobStore, digestOfBlobKey, storeUnavailable } from './blob-store';

/** Where the bucket is and how to sign for it: the S3_* settings (README, docs/object-storage.md). */
export interface S3StoreOptions {
  bucket: string;
  /** Unset: AWS's own endpoint for the region. */
  endpoint?: string;
  region: string;
  /** Both or neither; neither: the SDK's default chain (environment, instance or task role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO and most self-hosted stores). */
  forcePathStyle: boolean;
  /** Prepended to every key, so one bucket can hold several instances' blobs. */
  prefix: string;
  /** How long one request may take before it counts as a failure (and the upload as a 503). */
  timeoutMs: number;
}

/**
 * A blob store in an S3 bucket; the key `sha256/<hex>` is the object `<prefix>sha256/<hex>`. Checksums are
 * sent only where S3 requires them: the SDK's default CRC32 trailers (aws-chunked uploads) are refused by
 * several S3-compatible stores, and the asset row already keeps the SHA-256 of the bytes.
 *
 * @example
 * ```ts
 * import { createS3Store } from './s3-store';
 *
 * const store = createS3Store({ bucket: 'demoshare-assets', region: 'eu-west-1', forcePathStyle: false, prefix: '', timeoutMs: 10_000 });
 * ```
 */
export function createS3Store(options: S3StoreOptions): BlobStore {
  // The SDK is loaded on the first request, not with the app: its import costs ~150 ms, which every process
  // and test worker would pay for a store most instances do not use.
  let loaded: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }> | undefined;
  const connect = () =>
    (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: options.endpoint,
        region: options.region,
        forcePathStyle: options.forcePathStyle,
        credentials:
          options.accessKeyId && options.secretAccessKey
            ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
            : undefined,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestHandler: { connectionTimeout: Math.min(options.timeoutMs, 3000), requestTimeout: options.timeoutMs },
        // One retry: a store that is down makes an upload wait for every attempt before its 503.
        maxAttempts: 2,
      }),
    })));
  // The presigner too, on the first presigned address (ASSET_REDIRECT=presigned only).
  let presigner: Promise<typeof import('@aws-sdk/s3-request-presigner')> | undefined;
  const loadPresigner = () => (presigner ??= import('@aws-sdk/s3-request-presigner'));
  const Bucket = options.bucket;
  const keyOf = (key: string) => {
    if (!digestOfBlobKey(key)) throw new Error(`not a blob key: ${key}`);
    return `${options.prefix}${key}`;
  };

  return {
    kind: 's3',
    async put(key, bytes, contentType) {
      try {
        const { sdk, client } = await connect();
        await client.send(new sdk.PutObjectCommand({ Bucket, Key: keyOf(key), Body: bytes, ContentType: contentType, ContentLength: bytes.length }));
      } catch (error) {
        throw storeUnavailable('write', error);
      }
    },
    async get(key) {
      try {
        const { sdk, client } = await connect();
        const out = await client.send(new sdk.GetObjectCommand({ Bucket, Key: keyOf(key) }));
        return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw storeUnavailable('read', error);
      }
    },
    async exists(key) {
      try {
        const { sdk, client } = await connect();
        await client.send(new sdk.HeadObjectCommand({ Bucket, Key: keyOf(key) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw storeUnavailable('read', error);
      }
    },
    async delete(key) {
      try {
        const { sdk, client } = await connect();
        await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
      } catch (error) {
        if (isMissing(error)) return;
        throw storeUnavailable('delete', error);
      }
    },
    async *list() {
      const Prefix = `${options.prefix}sha256/`;
      let ContinuationToken: string | undefined;
      do {
        let out: import('@aws-sdk/client-s3').ListObjectsV2CommandOutput;
        try {
          const { sdk, client } = await connect();
          out = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix, ContinuationToken, MaxKeys: 1000 }));
        } catch (error) {
          throw storeUnavailable('read', error);
        }
        const page = (out.Contents ?? [])
          .map((o) => ({ key: (o.Key ?? '').slice(options.prefix.length), modifiedAt: o.LastModified ?? new Date(0) }))
          .filter((o) => digestOfBlobKey(o.key) !== undefined);
        if (page.length > 0) yield page;
        ContinuationToken = out.IsTruncated ? out.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    /**
     * S3 has no rename, so the object's time is read just before the delete. A put of the same bytes in the
     * milliseconds between the two is the one race left (docs/object-storage.md); the grace period makes it
     * need bytes nobody named for that long, uploaded again at that instant.
     */
    async sweep(key, before) {
      try {
        const { sdk, client } = await connect();
        const head = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: keyOf(key) }));
        if (!head.LastModified || head.LastModified >= before) return false;
        await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw storeUnavailable('delete', error);
      }
    },
    /**
     * Signed here with the client's credentials (SigV4 query parameters), no request to the store: the
     * bucket checks the signature and the expiry when the address is used, and refuses it after.
     */
    async presignGet(key, { expiresInSeconds, signedAt, cacheControl }) {
      try {
        const { sdk, client } = await connect();
        const { getSignedUrl } = await loadPresigner();
        const command = new sdk.GetObjectCommand({ Bucket, Key: keyOf(key), ResponseCacheControl: cacheControl });
        return await getSignedUrl(client, command, { expiresIn: expiresInSeconds, signingDate: signedAt });
      } catch (error) {
        // Credentials that cannot be resolved (the default chain found none): the caller serves the bytes itself.
        throw storeUnavailable('read', error);
      }
    },
    async close() {
      if (loaded) (await loaded).client.destroy();
    },
  };
}

function isMissing(error: unknown) {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  // By name only: a 404 NoSuchBucket is a misconfigured store, not a missing blob.
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound';
}
