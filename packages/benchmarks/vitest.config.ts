import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The smoke starts real processes (servers, PostgreSQL, Prism, load generators): seconds, not milliseconds.
    testTimeout: 180_000,
    // The smoke starts every target (two PostgreSQL scale databases included): minutes on a busy 2-core machine.
    hookTimeout: 420_000,
  },
});
