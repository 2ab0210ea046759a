import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

const shared: Options = {
  format: ['esm', 'cjs'],
  target: 'es2022',
  platform: 'neutral',
  define: { __SDK_VERSION__: JSON.stringify(version) },
};

// `@internal` declarations (the request loop's plumbing, constructors only the client calls) stay out of the .d.ts.
const dts = { compilerOptions: { stripInternal: true } };

export default defineConfig([
  // The code of both entry points in one build, so ESM shares chunks between them (one WebhookVerificationError)
  // and the main entry's import() of the webhook checks becomes a chunk of its own.
  { ...shared, entry: { index: 'src/index.ts', webhooks: 'src/webhooks/index.ts' }, dts: { ...dts, entry: { index: 'src/index.ts' } }, clean: true },
  // Declarations one entry at a time: each .d.ts stands alone, without shared declaration chunks, which packages
  // inlining the SDK's types (core's and msw's `dts.resolve`) could not follow.
  { ...shared, entry: { webhooks: 'src/webhooks/index.ts' }, dts: { ...dts, only: true } },
]);
