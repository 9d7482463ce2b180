// The entry module of the guide printer's worker thread (guide-print-pool.ts): Playwright's side of printing runs here, off the event loop.
import { workerData } from 'node:worker_threads';
import { serveTasks } from '../core/worker-pool';
import { createGuidePrinter, type PrintJob } from './guide-printer';

export interface PrintWorkerData {
  chromiumPath: string;
  timeoutMs: number;
}

const { chromiumPath, timeoutMs } = (workerData as { data: PrintWorkerData }).data;
// One print at a time per thread: the pool gives each thread one task, and bounds how many wait.
const printer = createGuidePrinter({ chromiumPath, concurrency: 1, maxQueue: 0, timeoutMs });
serveTasks({
  print: async (job: PrintJob) => new Uint8Array(await printer.print(job)),
});
