import { afterEach, describe, expect, it } from 'vitest';
import { JobQueue } from '../src/jobs/queue';
import { createTestDatabase, type TestDatabase } from './helpers/database';

const QUEUE = 'test.outlives-stop';

describe('a job that outlives the queue’s stop (src/jobs/queue.ts)', () => {
  let base: TestDatabase | undefined;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);

  afterEach(async () => {
    process.off('unhandledRejection', onRejection);
    await base?.drop();
    base = undefined;
  });

  // As at a shutdown during a long render: the process stops the queue (its graceful timeout passes), then
  // closes the database, and only then does the handler end.
  it.each(['fails', 'succeeds'] as const)('leaves no unhandled rejection when it %s after the database has closed', async (outcome) => {
    base = await createTestDatabase();
    const queue = new JobQueue(base.database, { work: true });
    await queue.start(() => {});
    await queue.define({ name: QUEUE, retryLimit: 3 });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    await queue.work(QUEUE, { pollingIntervalSeconds: 0.5 }, async () => {
      started();
      await gate;
      if (outcome === 'fails') throw new Error('the render failed late');
    });
    await queue.send(QUEUE, {});
    await running;

    await queue.stop(1_000);
    // Our own sends after the stop are refused aloud, not dropped like pg-boss's late outcomes.
    await expect(queue.send(QUEUE, {})).rejects.toThrow('The job queue has stopped');
    // pg-boss failed the job it had to leave behind, so it runs again (its retries) in the next process.
    const { rows } = await base.database.executeSql(`select state, output::text as output from pgboss.job where name = $1`, [QUEUE]);
    expect(rows).toEqual([{ state: 'retry', output: expect.stringContaining('pg-boss shut down while active') }]);

    process.on('unhandledRejection', onRejection);
    await base.drop();
    base = undefined;
    finish();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(rejections).toEqual([]);
  });
});
