import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Fault tests kill processes and stop services: they run on their own (npm run test:faults, vitest.faults.config.ts).
    exclude: ['**/node_modules/**', 'test/faults/**'],
    // A directory the test processes of one run share: the migrated PGlite template is built once there.
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // One module graph per worker process, not one per file: every file imports the whole app, and evaluating
    // it again for each of ~200 files was a fifth of the suite's CPU time. Safe because nothing in src/ does
    // work at import time or keeps per-process state a test could leak into the next file (no mocks, no
    // environment writes in tests); each file builds and closes its own app.
    isolate: false,
    // Generous: the suite must pass on a loaded 2-core machine, where booting PGlite or Chromium can take a while.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
