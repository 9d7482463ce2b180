import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { createS3Store } from '../../src/core/blob-store/s3-store';

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** A store on this server's bucket, as ASSET_STORE=s3 builds one. */
  store(prefix?: string): ReturnType<typeof createS3Store>;
  /** Stops answering (the store is down) until `start()`; the objects stay. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver: the S3 REST API over HTTP, objects on disk) on a free port, with one
 * bucket: the S3 backend is tested against the protocol, signatures and all, not against a fake client.
 */
export async function startS3Server(bucket = 'demoshare-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'demoshare-s3-'));
  let port = 0;
  let server: S3rver | undefined;
  const start = async () => {
    server = new S3rver({ port, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
    port = (await server.run()).port;
  };
  await start();
  const stop = async () => {
    await server?.close();
    server = undefined;
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    store: (prefix = '') =>
      createS3Store({
        bucket,
        endpoint: `http://127.0.0.1:${port}`,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
        prefix,
        timeoutMs: 5_000,
      }),
    stop,
    start,
    async close() {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
