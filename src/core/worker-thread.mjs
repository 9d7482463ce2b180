// The first module of every worker thread of core/worker-pool.ts. A thread starts as plain Node, without the
// TypeScript loader of the main thread (bin/demoshare.js registers tsx there, vitest has its own): it
// registers tsx as bin/demoshare.js does, then loads the pool's entry module, which serves the tasks.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
