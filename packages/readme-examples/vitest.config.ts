import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // One TypeScript program per README: a few seconds each on a shared 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
