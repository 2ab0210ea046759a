import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // CPU-bound suites (random bodies, a real browser) share 2 cores with the rest of `pnpm test`.
    testTimeout: 30_000,
    // The typed overrides: `*.test-d.ts` files fail when a wrong body type compiles (tsc, no runtime).
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
