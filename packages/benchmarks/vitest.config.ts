import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The smoke starts real processes (servers, PostgreSQL, Prism, load generators): seconds, not milliseconds.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
