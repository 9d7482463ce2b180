// Where PDFs are printed: worker threads, each with its own Chromium, so neither the browser nor the DevTools traffic of a print touches the event loop.
import { WorkerPool } from '../core/worker-pool';
import type { PrintWorkerData } from './guide-print-worker';
import { noChromium, type PrintJob } from './guide-printer';

export interface GuidePdfLimits {
  /** CHROMIUM_PATH as the config resolved it; null: no browser, and PDF answers 503. */
  chromiumPath: string | null;
  /** PDFs printed at once (threads, each starting its own Chromium on its first print). */
  concurrency: number;
  /** PDFs that may wait; one more is refused at once with 503 and Retry-After. */
  maxQueue: number;
  /** How long one print may take once a thread has it; past it the thread (and its browser) is ended: 413. */
  timeoutMs: number;
}

/** What the guides service prints through: {@link createGuidePrintPool} in the app, anything alike in a test. */
export interface GuidePrinter {
  print(job: PrintJob): Promise<Buffer>;
  /** Whether PDFs can be printed here at all (a browser is configured). */
  available(): boolean;
  close(): Promise<void>;
}

type PrintTasks = { print(job: PrintJob): Promise<Uint8Array> };

/**
 * The guide printer of a process: a {@link WorkerPool} of `concurrency` threads running guide-print-worker.ts,
 * started with the first PDF. A job's pictures are copied to the thread, the PDF copied back.
 *
 * @example
 * ```ts
 * const printer = createGuidePrintPool({ chromiumPath: '/usr/bin/chromium', concurrency: 2, maxQueue: 8, timeoutMs: 90_000 });
 * const pdf = await printer.print({ html: '<h1>Hi</h1>', files: new Map(), footer: 'Hi' });
 * await printer.close();
 * ```
 */
export function createGuidePrintPool(limits: GuidePdfLimits): GuidePrinter {
  const { chromiumPath } = limits;
  const pool = chromiumPath
    ? new WorkerPool<PrintTasks>({
        entry: new URL('./guide-print-worker.ts', import.meta.url),
        size: limits.concurrency,
        maxQueue: limits.maxQueue,
        // The thread's own budget answers first (a clear 413); this one ends a thread that hangs past it.
        timeoutMs: limits.timeoutMs + 10_000,
        maxMemoryMb: 512,
        data: { chromiumPath, timeoutMs: limits.timeoutMs } satisfies PrintWorkerData,
        settings: { timeout: 'the PDF time limit', queue: 'the PDF queue' },
      })
    : null;
  return {
    async print(job) {
      if (!pool) throw noChromium();
      const pdf = await pool.run('print', [job], { field: 'format', what: 'The guide' });
      return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    },
    available: () => pool !== null,
    close: async () => {
      await pool?.close();
    },
  };
}
