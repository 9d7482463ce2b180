import { describe, expect, it } from 'vitest';
import { Batcher } from './batcher';

/** A batcher whose flushes are recorded; `work` runs inside each flush before it answers. */
function recorded(concurrency = 1, work: (items: number[]) => void | Promise<void> = () => {}) {
  const flushes: number[][] = [];
  const batcher = new Batcher<number, number>(
    async (items) => {
      flushes.push(items);
      await work(items);
      return items.map((n) => (n < 0 ? new Error(`refused ${n}`) : n * 2));
    },
    { maxBatch: 5, concurrency },
  );
  return { batcher, flushes };
}

describe('Batcher', () => {
  it('flushes the items of one turn of the event loop together', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { batcher, flushes } = recorded(1, () => gate);
    const submitted = [1, 2, 3].map((n) => batcher.submit(n));
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushes).toEqual([[1, 2, 3]]);
    // Every item counts until its flush has answered, however many one flush holds (a shutdown waits for them).
    expect(batcher.pending).toBe(3);
    release();
    const answers = await Promise.all(submitted);
    expect(batcher.pending).toBe(0);
    expect(answers).toEqual([2, 4, 6]);
    expect(flushes).toEqual([[1, 2, 3]]);
  });

  it('groups items that arrive in the next turns while a flush holds the thread, as PGlite does', async () => {
    // Each flush blocks the thread for 20 ms and answers without yielding (a synchronous database call),
    // while callers submit from timers, one per turn: started at the first submit, every flush held one item.
    const { batcher, flushes } = recorded(1, () => {
      const until = Date.now() + 20;
      while (Date.now() < until);
    });
    const answers = await Promise.all(
      [1, 2, 3, 4].map((n) => new Promise<number>((resolve) => setTimeout(() => resolve(batcher.submit(n)), n))),
    );
    expect(answers).toEqual([2, 4, 6, 8]);
    expect(flushes.length).toBeLessThan(4);
    expect(flushes.flat()).toEqual([1, 2, 3, 4]);
  });

  it('queues what comes during a flush for the next one, keeping to maxBatch and the concurrency', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inFlight = 0;
    let most = 0;
    const { batcher, flushes } = recorded(1, async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await gate;
      inFlight--;
    });
    const first = batcher.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushes).toEqual([[1]]);
    const rest = Array.from({ length: 7 }, (_, i) => batcher.submit(i + 2));
    expect(batcher.pending).toBe(8);
    release();
    expect(await Promise.all([first, ...rest])).toEqual([2, 4, 6, 8, 10, 12, 14, 16]);
    expect(flushes).toEqual([[1], [2, 3, 4, 5, 6], [7, 8]]);
    expect(most).toBe(1);
    expect(batcher.pending).toBe(0);
  });

  it('answers an item alone without a timer, and fails only the item its flush refused', async () => {
    const { batcher, flushes } = recorded();
    expect(await batcher.submit(4)).toBe(8);
    const [good, bad] = await Promise.allSettled([batcher.submit(5), batcher.submit(-1)]);
    expect(good).toEqual({ status: 'fulfilled', value: 10 });
    expect(bad).toMatchObject({ status: 'rejected', reason: new Error('refused -1') });
    expect(flushes).toEqual([[4], [5, -1]]);
  });
});
