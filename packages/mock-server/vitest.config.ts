import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Spawned processes share 2 cores with the rest of `pnpm test`.
    testTimeout: 30_000,
  },
});
