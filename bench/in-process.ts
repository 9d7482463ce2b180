import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app';
import { type Config, defaultAssetStore, testConfig } from '../src/config';
import type { BlobStore } from '../src/core/blob-store/blob-store';
import { createFilesystemStore } from '../src/core/blob-store/filesystem-store';
import type { Database } from '../src/db/client';
import { JobQueue } from '../src/jobs/queue';

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The median time of `runs` calls of `fn`, in ms, after 3 warm-ups: in-process figures, no HTTP. */
export async function medianMs(fn: () => Promise<unknown>, runs = 15) {
  for (let i = 0; i < 3; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

/** The whole app on `database` (migrated here), requests through app.inject, no job workers and no rate limit. */
export async function startInProcessApp(database: Database, deps: { assetStore?: BlobStore | null; config?: Partial<Config> } = {}) {
  await database.migrate();
  const queue = new JobQueue(database, { work: false });
  await queue.start(() => {});
  // Unset, assets' bytes go where the engine's instances keep them by default: files on the embedded database
  // (a folder of this run's own), the rows on PostgreSQL.
  const blobDir =
    deps.assetStore === undefined && defaultAssetStore(database.kind) === 'filesystem' ? await mkdtemp(join(tmpdir(), 'demoshare-bench-blobs-')) : undefined;
  const assetStore = blobDir ? createFilesystemStore(blobDir) : deps.assetStore === undefined ? null : deps.assetStore;
  const { app } = await buildApp({
    // One client sends every request, far past the API's budget: the limit would be all that is measured.
    config: testConfig({ RATE_LIMIT_PER_MINUTE: 1_000_000_000, ASSET_STORE: assetStore?.kind ?? 'database', ...deps.config }),
    database,
    secretKey: 'bench-secret-key-that-is-long-enough-0123456789',
    queue,
    assetStore,
  });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await queue.stop();
      if (blobDir) await rm(blobDir, { recursive: true, force: true });
    },
  };
}
