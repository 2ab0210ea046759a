import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Real servers and spawned CLI processes share 2 cores with the rest of `pnpm test`.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
