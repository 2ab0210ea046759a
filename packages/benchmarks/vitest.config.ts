import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The smoke starts real processes (servers, PostgreSQL, Prism, load generators): seconds, not milliseconds.
    testTimeout: 180_000,
    // The smoke starts every target (two PostgreSQL scale databases and the four backlog servers included): 281 s on
    // a quiet 2-core machine, 404 s beside two busy loops before the backlog rows came. A hang detector, not a verdict.
    hookTimeout: 900_000,
  },
});
