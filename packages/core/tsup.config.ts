import { defineConfig } from 'tsup';

export default defineConfig({
  // `testing` holds the store contract suite (vitest); the main entry never imports it.
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm', 'cjs'],
  // The SDK is only a dev dependency: its generated types are inlined so the published d.ts stands alone.
  dts: { resolve: ['@customers-api/sdk'] },
  tsconfig: 'tsconfig.build.json',
  platform: 'neutral',
  target: 'es2022',
  external: ['vitest'],
  clean: true,
  sourcemap: false,
});
