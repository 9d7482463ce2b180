// Worker threads for CPU-heavy work on user input (HTML snapshots): bounded queue, time and memory per task, so
// no document can stall the event loop or grow the process.
import { parentPort, Worker } from 'node:worker_threads';
import { AppError, ERROR_STATUS, type ErrorCode, type ErrorDetail } from './errors';

// biome-ignore lint/suspicious/noExplicitAny: a table of task functions of any arguments
export type TaskTable = Record<string, (...args: any[]) => unknown>;

export interface WorkerPoolOptions {
  /** The module each worker runs (TypeScript is fine): it calls `serveTasks` with its table. */
  entry: URL;
  /** Threads at most; started when work arrives, not before. */
  size: number;
  /** Tasks that may wait for a thread; one more is refused with 503. */
  maxQueue: number;
  /** How long a task may run once a thread has it; past it the thread is ended and replaced. */
  timeoutMs: number;
  /**
   * The old-generation heap of each thread, in MB: a document that needs more ends its thread (413), where
   * without a cap it would grow the whole process's memory until the operating system killed it.
   */
  maxMemoryMb: number;
  /** Given to the entry module as `workerData.data`. */
  data?: unknown;
  /** The settings named in errors: the time budget's and the queue's. */
  settings: { timeout: string; queue: string };
}

export interface RunOptions {
  /** The request field the work is about, for the error's details (`snapshot`). */
  field?: string;
  /** What the work is about, for the error's message ("The snapshot"). */
  what?: string;
}

export interface PoolStats {
  size: number;
  /** Thread ids of the running threads: never the main thread's (0). */
  threads: number[];
  busy: number;
  queued: number;
  completed: number;
  timedOut: number;
}

interface Job {
  name: string;
  args: unknown[];
  options: RunOptions;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

type Outcome = { type: 'ready' } | { type: 'done'; ok: true; value: unknown } | { type: 'done'; ok: false; error: WireError };

interface WireError {
  name: string;
  message: string;
  code?: string;
  details?: ErrorDetail[];
  headers?: Record<string, string>;
}

/** Starts each thread as plain Node: it registers tsx there, then loads the entry module. */
const BOOT = new URL('./worker-thread.mjs', import.meta.url);
const QUEUE_RETRY_AFTER_SECONDS = 5;

/**
 * A fixed-size pool of worker threads for CPU-heavy work that must not hold the event loop (DESIGN.md,
 * storage and processes). Bounded: a full queue answers 503 with Retry-After at once rather than letting
 * requests pile up, and a task that runs past its budget has its thread ended (the only way to stop
 * synchronous work) and answers 413, naming the setting. The budget starts when a thread takes the task,
 * so time spent queued behind others never counts against a document.
 *
 * @example
 * ```ts
 * import { WorkerPool } from './worker-pool';
 *
 * type Tasks = { wordCount(html: string): number };
 * const pool = new WorkerPool<Tasks>({
 *   entry: new URL('./word-count-worker.ts', import.meta.url),
 *   size: 2,
 *   maxQueue: 16,
 *   timeoutMs: 5_000,
 *   maxMemoryMb: 256,
 *   settings: { timeout: 'WORD_COUNT_TIMEOUT', queue: 'WORD_COUNT_QUEUE' },
 * });
 * const words = await pool.run('wordCount', ['<p>two words</p>'], { field: 'html', what: 'The page' });
 * await pool.close();
 * ```
 */
export class WorkerPool<T extends TaskTable> {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private closed = false;
  private completed = 0;
  private timedOut = 0;

  constructor(private readonly options: WorkerPoolOptions) {}

  run<K extends keyof T & string>(name: K, args: Parameters<T[K]>, options: RunOptions = {}): Promise<Awaited<ReturnType<T[K]>>> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'The server is shutting down: try again in a moment'));
    if (this.queue.length >= this.options.maxQueue) {
      return Promise.reject(
        new AppError('unavailable', `The server is busy with other documents (${this.options.settings.queue}): try again in a few seconds`, {
          headers: { 'retry-after': String(QUEUE_RETRY_AFTER_SECONDS) },
        }),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ name, args, options, resolve: resolve as (value: unknown) => void, reject });
      this.drain();
    });
  }

  stats(): PoolStats {
    return {
      size: this.options.size,
      threads: [...this.slots].map((slot) => slot.worker.threadId),
      busy: [...this.slots].filter((slot) => slot.job).length,
      queued: this.queue.length,
      completed: this.completed,
      timedOut: this.timedOut,
    };
  }

  /** Refuses what is queued, ends every thread (a running task fails with 503) and waits for them. */
  async close(): Promise<void> {
    this.closed = true;
    const closing = new AppError('unavailable', 'The server is shutting down: try again in a moment');
    for (const job of this.queue.splice(0)) job.reject(closing);
    await Promise.all(
      [...this.slots].map((slot) => {
        this.finish(slot, (job) => job.reject(closing));
        return slot.worker.terminate();
      }),
    );
  }

  private drain(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.ready && !slot.job) this.dispatch(slot, this.queue.shift()!);
    }
    const starting = [...this.slots].filter((slot) => !slot.ready).length;
    let wanted = Math.min(this.queue.length - starting, this.options.size - this.slots.size);
    while (wanted-- > 0) this.spawn();
  }

  private spawn(): void {
    const worker = new Worker(BOOT, {
      workerData: { entry: this.options.entry.href, data: this.options.data },
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxMemoryMb },
    });
    const slot: Slot = { worker, ready: false };
    this.slots.add(slot);
    worker.unref();
    worker.on('message', (message: Outcome) => {
      if (message.type === 'ready') {
        slot.ready = true;
        this.drain();
        return;
      }
      // An answer that arrives after the budget ended its task is dropped with it.
      if (!slot.job) return;
      this.completed++;
      this.finish(slot, (job) => (message.ok ? job.resolve(message.value) : job.reject(fromWire(message.error))));
      this.drain();
    });
    let failure: Error | undefined;
    worker.on('error', (error: NodeJS.ErrnoException) => {
      failure = new Error(`a worker thread failed: ${error.message}`, { cause: error });
      this.finish(slot, (job) => job.reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? this.overMemory(job.options) : failure));
    });
    worker.on('exit', () => {
      this.slots.delete(slot);
      this.finish(slot, (job) => job.reject(failure ?? new Error('a worker thread stopped before it answered')));
      if (this.closed) return;
      // A thread that cannot even start would fail the same way again: what waits for it fails now.
      if (!slot.ready) {
        const cannotStart = failure ?? new Error('a worker thread stopped while starting');
        for (const job of this.queue.splice(0)) job.reject(cannotStart);
        return;
      }
      // Ended for its budget, or crashed: the next thread needed replaces it.
      this.drain();
    });
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    // A busy thread keeps the process alive, as any request in flight does; an idle one does not.
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      this.timedOut++;
      // Out of the pool at once: nothing else may be given to a thread that is being ended.
      this.slots.delete(slot);
      this.finish(slot, (timed) => timed.reject(this.overBudget(timed.options)));
      void slot.worker.terminate();
      this.drain();
    }, this.options.timeoutMs);
    slot.worker.postMessage({ name: job.name, args: job.args });
  }

  private finish(slot: Slot, settle: (job: Job) => void): void {
    const { job } = slot;
    if (!job) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    slot.worker.unref();
    settle(job);
  }

  private overMemory(options: RunOptions): AppError {
    const limit = `${this.options.maxMemoryMb} MB`;
    return new AppError('payload_too_large', `${options.what ?? 'The document'} needs more than ${limit} of memory to process: the limit is ${limit}`, {
      details: [{ field: options.field ?? 'document', message: `must be processed within ${limit} of memory` }],
    });
  }

  private overBudget(options: RunOptions): AppError {
    const limit = formatMs(this.options.timeoutMs);
    const setting = this.options.settings.timeout;
    return new AppError('payload_too_large', `${options.what ?? 'The document'} took longer than ${limit} to process: the limit is ${limit} (${setting})`, {
      details: [{ field: options.field ?? 'document', message: `must be processed within ${limit} (${setting})` }],
    });
  }
}

const formatMs = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/** Errors cross the thread boundary as data: an AppError comes back as the same AppError, anything else as an Error of the same name. */
function toWire(error: unknown): WireError {
  if (error instanceof AppError) {
    return { name: error.name, message: error.message, code: error.code, details: error.details, headers: error.headers };
  }
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
}

function fromWire(wire: WireError): Error {
  if (wire.code && wire.code in ERROR_STATUS) {
    return new AppError(wire.code as ErrorCode, wire.message, { details: wire.details, headers: wire.headers });
  }
  const error = new Error(wire.message);
  error.name = wire.name;
  return error;
}

/**
 * The worker side: answers each task the pool sends with its function's result (awaited) or its error.
 *
 * @example
 * ```ts
 * import { serveTasks } from './worker-pool';
 *
 * // word-count-worker.ts, the pool's entry
 * serveTasks({ wordCount: (html: string) => html.replace(/<[^>]*>/g, ' ').split(/\s+/).filter(Boolean).length });
 * ```
 */
export function serveTasks(tasks: TaskTable): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks runs in a worker thread');
  port.on('message', async ({ name, args }: { name: string; args: unknown[] }) => {
    try {
      const task = tasks[name];
      if (!task) throw new Error(`no task named ${name}`);
      port.postMessage({ type: 'done', ok: true, value: await task(...args) });
    } catch (error) {
      port.postMessage({ type: 'done', ok: false, error: toWire(error) });
    }
  });
  port.postMessage({ type: 'ready' });
}
