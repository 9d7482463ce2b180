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
    // Generous: the suite must pass on a loaded 2-core machine, where booting PGlite or Chromium can take a while.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
