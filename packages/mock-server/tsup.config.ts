import { defineConfig } from 'tsup';

export default defineConfig({
  // The bin and the programmatic entry; ESM only: the package is a Node program (node:http), not a library
  // for bundlers, and Node 20.19+ can require() ESM anyway.
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  platform: 'node',
  target: 'node20',
  external: ['@customers-api/core', 'yaml'],
  clean: true,
});
