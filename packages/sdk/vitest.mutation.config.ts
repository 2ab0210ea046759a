import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// For `pnpm mutation` only: the source-level tests. The tests of dist/ (bundle, types, size, DOM builds) and
// the Prism run cannot see a mutated source file, so they would only slow every mutant down.
export default defineConfig({
  define: { __SDK_VERSION__: JSON.stringify(version) },
  test: {
    include: ['src/**/*.test.ts', 'test/integration/http-server.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
