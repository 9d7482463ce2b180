import { buildApp } from '../src/app';
import { type Config, testConfig } from '../src/config';
import type { BlobStore } from '../src/core/blob-store/blob-store';
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
  const { app } = await buildApp({
    // One client sends every request, far past the API's budget: the limit would be all that is measured.
    config: testConfig({ RATE_LIMIT_PER_MINUTE: 1_000_000_000, ...deps.config }),
    database,
    secretKey: 'bench-secret-key-that-is-long-enough-0123456789',
    queue,
    assetStore: deps.assetStore,
  });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await queue.stop();
    },
  };
}
