import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __SDK_VERSION__: JSON.stringify(version) },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/helpers/preload-lazy-modules.ts'],
    // Type tests (`expectTypeOf`, `@ts-expect-error`): run through tsc, each failing assertion a failed test.
    typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'], tsconfig: 'tsconfig.json' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
