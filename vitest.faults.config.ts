import { defineConfig } from 'vitest/config';

// The fault tests (npm run test:faults): real child processes on PostgreSQL and Redis, killed, cut off and
// restarted. One file at a time: each starts several processes and would starve the others on a small machine.
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
