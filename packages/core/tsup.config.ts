import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // The SDK is only a dev dependency: its generated types are inlined so the published d.ts stands alone.
  dts: { resolve: ['@customers-api/sdk'] },
  tsconfig: 'tsconfig.build.json',
  platform: 'neutral',
  target: 'es2022',
  clean: true,
  sourcemap: false,
});
