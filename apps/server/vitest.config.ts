import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/postgres-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own databases; two workers keep the 2-core machine responsive.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
