import { describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { DeliveryLoop, type DeliveryQueue } from './delivery-loop';

/** A queue of numbered items in memory: the loop's own rules, without a database (the domains' tests run it on both engines). */
function memoryQueue(options: { items: number; attemptMs: number; concurrency: number }) {
  const due = Array.from({ length: options.items }, (_, i) => i);
  const seen = { running: 0, most: 0, done: [] as number[], leases: [] as number[] };
  let notify: (payload: string) => void = () => {};
  const errors: string[] = [];
  const deps = {
    database: {
      db: null,
      listen: async (_channel: string, handler: (payload: string) => void) => {
        notify = handler;
        return async () => {};
      },
    },
    clock: systemClock,
    log: { error: (_obj: object, msg: string) => errors.push(msg) },
    settings: { timeoutMs: 1_000, pollIntervalMs: 60_000 },
  };
  const queue: DeliveryQueue<null, number> = {
    name: 'test',
    channel: 'test',
    concurrency: options.concurrency,
    claimDue: async (_db, now, leaseUntil, limit) => {
      seen.leases.push(leaseUntil.getTime() - now.getTime());
      return due.splice(0, limit);
    },
    nextDueAt: async () => null,
    attempt: async (item) => {
      seen.running++;
      seen.most = Math.max(seen.most, seen.running);
      await new Promise((resolve) => setTimeout(resolve, options.attemptMs));
      seen.running--;
      seen.done.push(item);
    },
    logFields: (item) => ({ item }),
  };
  return { deps, queue, due, seen, errors, notify: () => notify('') };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
};

describe('DeliveryLoop', () => {
  it('runs at most `concurrency` attempts at once, leases for the attempt’s requests, and stops only when they ended', async () => {
    const q = memoryQueue({ items: 10, attemptMs: 30, concurrency: 3 });
    const loop = new DeliveryLoop(q.deps, { ...q.queue, requestsPerAttempt: 3 });
    await loop.start();
    await until(() => q.seen.done.length >= 4);
    await loop.stop();
    expect(q.seen.most).toBe(3);
    expect(q.seen.running).toBe(0);
    // Every claimed item was attempted to its end: stopping cuts none between sending and recording.
    expect(q.seen.done.length + q.due.length).toBe(10);
    expect(q.seen.leases.every((ms) => ms === 3 * 1_000 + 30_000)).toBe(true);
  });

  it('wakes on a notification instead of waiting for its poll', async () => {
    const q = memoryQueue({ items: 0, attemptMs: 0, concurrency: 2 });
    const loop = new DeliveryLoop(q.deps, q.queue);
    await loop.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    q.due.push(7);
    q.notify();
    await until(() => q.seen.done.includes(7));
    await loop.stop();
  });

  it('logs a failed attempt and a failed claim, and goes on', async () => {
    const q = memoryQueue({ items: 2, attemptMs: 0, concurrency: 1 });
    let claims = 0;
    const loop = new DeliveryLoop(
      { ...q.deps, settings: { timeoutMs: 1_000, pollIntervalMs: 20 } },
      {
        ...q.queue,
        claimDue: async (...args) => {
          if (claims++ === 0) throw new Error('database away');
          return q.queue.claimDue(...args);
        },
        attempt: async (item) => {
          if (item === 0) throw new Error('receiver exploded');
          await q.queue.attempt(item);
        },
      },
    );
    await loop.start();
    await until(() => q.seen.done.includes(1));
    await loop.stop();
    expect(q.errors).toEqual(['test loop failed; retrying', 'test attempt failed']);
  });
});
