import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/postgres-global-setup.ts'],
    // Generous: a timeout is a hang detector, never a speed verdict. Browser tests on a 2-core machine running two
    // busy loops beside the suite (issue 40's check) took up to 70 s per viewport.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Each file gets its own databases; two workers keep the 2-core machine responsive.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
