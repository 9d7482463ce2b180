/**
 * Groups concurrent callers into one unit of work: while a flush runs, new items queue up, and the next
 * flush takes them all. Under load a single transaction commits many requests; alone, an item is flushed
 * at once (no timer, no added latency). Each caller's promise settles after its flush has finished.
 */
export class Batcher<I, R> {
  private queue: Array<{ item: I; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  private running = 0;

  constructor(
    private readonly flush: (items: I[]) => Promise<Array<R | Error>>,
    private readonly options: { maxBatch: number; concurrency: number },
  ) {}

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump() {
    while (this.running < this.options.concurrency && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.running++;
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
      this.pump();
    }
  }

  /** Items queued or in flight: lets a graceful shutdown wait until every acknowledged write is done. */
  get pending(): number {
    return this.queue.length + this.running;
  }
}
