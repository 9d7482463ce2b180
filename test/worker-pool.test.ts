import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/core/errors';
import { WorkerPool } from '../src/core/worker-pool';

// The memory cap of a document worker (core/worker-pool.ts): a task that outgrows it ends its own thread with
// a 413 naming the cap, and the pool goes on with a new thread, instead of the process growing until killed.
describe('a worker thread past its memory cap', () => {
  const pool = new WorkerPool<{ echo: (value: string) => string; hoard: () => never }>({
    entry: new URL('./fixtures/worker-pool/tasks.ts', import.meta.url),
    size: 1,
    maxQueue: 4,
    timeoutMs: 60_000,
    maxMemoryMb: 32,
    settings: { timeout: 'TEST_TIMEOUT', queue: 'TEST_QUEUE' },
  });
  afterAll(() => pool.close());

  it('fails that task with 413 naming the cap, and serves the next on a new thread', async () => {
    expect(await pool.run('echo', ['before'])).toBe('before');
    const [first] = pool.stats().threads;

    const error = await pool.run('hoard', [], { what: 'The snapshot', field: 'snapshot' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'payload_too_large', details: [{ field: 'snapshot' }] });
    expect((error as AppError).message).toContain('32 MB');

    expect(await pool.run('echo', ['after'])).toBe('after');
    expect(pool.stats().threads).not.toContain(first);
  });
});
