/**
 * Groups concurrent callers into one unit of work: while a flush runs, new items queue up, and the next
 * flush takes them all. Under load a single transaction commits many requests. Each caller's promise
 * settles after its flush has finished.
 *
 * A flush starts in the event loop's check phase (setImmediate), not at the first submit: the requests read
 * in the same turn of the loop join it. Started at once, a flush whose database work runs on this thread
 * (PGlite) finished before the next request had been parsed, so every batch held one request (measured:
 * 280 requests/s in batches of 1.00, against 850-950 in batches of 10 once deferred, 10 concurrent
 * viewers in process). No timer: an item alone waits one turn of the loop.
 */
export class Batcher<I, R> {
  private queue: Array<{ item: I; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  /** Flushes under way, and the items they hold. */
  private running = 0;
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly flush: (items: I[]) => Promise<Array<R | Error>>,
    private readonly options: { maxBatch: number; concurrency: number },
  ) {}

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.pump();
      });
    });
  }

  private pump() {
    while (this.running < this.options.concurrency && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.running++;
      this.inFlight += batch.length;
      void this.run(batch);
    }
  }

  private async run(batch: Batcher<I, R>['queue']) {
    try {
      const results = await this.flush(batch.map((b) => b.item));
      batch.forEach((b, i) => {
        const result = results[i];
        if (result instanceof Error) b.reject(result);
        else b.resolve(result as R);
      });
    } catch (error) {
      for (const b of batch) b.reject(error);
    } finally {
      this.running--;
      this.inFlight -= batch.length;
      this.pump();
    }
  }

  /** Items queued or in flight: lets a graceful shutdown wait until every acknowledged write is done. */
  get pending(): number {
    return this.queue.length + this.inFlight;
  }
}
