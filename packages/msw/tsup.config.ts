import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // The SDK's generated types (paths, operations) are inlined: it is not a dependency of this package.
  dts: { resolve: ['@customers-api/sdk'] },
  tsconfig: 'tsconfig.build.json',
  platform: 'neutral',
  target: 'es2022',
  // msw is a peer and core a dependency: both stay imports, so the consumer's single msw instance is used.
  external: ['msw', '@customers-api/core'],
  clean: true,
});
