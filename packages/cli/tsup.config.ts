import { defineConfig } from 'tsup';

export default defineConfig({
  // The bin and the programmatic entry; ESM only: a Node program (fetch, node:util), and Node 20.19+ can
  // require() ESM, so a CommonJS script can still load `runCli`.
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  platform: 'node',
  target: 'node20',
  external: ['@customers-api/sdk'],
  clean: true,
});
