import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// For `pnpm mutation` only: the unit tests beside the code. The tests of dist/ (bundle, types, size, DOM builds)
// cannot see a mutated source file, and the real-server ones (Prism, test/integration) spend seconds of real
// time per run on what the fake-timer unit tests already pin down; per mutant that is hours.
export default defineConfig({
  define: { __SDK_VERSION__: JSON.stringify(version) },
  test: {
    include: ['src/**/*.test.ts'],
    setupFiles: ['test/helpers/preload-lazy-modules.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
