// Bundles dist/index.js the way a seller's bundler would (openapi-fetch included, minified, code behind a dynamic
// import() split into its own chunk, loaded on first use), gzips it and fails above the budget. Also measures
// the `@customers-api/sdk/webhooks` entry alone (a receiver that only verifies). Run after `build`:
// `node scripts/size.mjs`. The vitest suite runs it too.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The client's bundle: what loads when a seller imports `@customers-api/sdk`. */
export const BUDGET_BYTES = 8 * 1024;
/** `@customers-api/sdk/webhooks` alone: the verifier and its errors. */
export const WEBHOOKS_BUDGET_BYTES = 3 * 1024;

/** @typedef {{ minified: number, gzipped: number }} Size */

/**
 * @param {string} file a file of dist/
 * @returns {Promise<Size & { lazy: Size }>} the entry's bundle, and the chunks it loads on first use (together)
 */
async function bundle(file) {
  // esbuild comes with tsup; resolve it through tsup so no extra dependency is needed.
  const require = createRequire(createRequire(import.meta.url).resolve('tsup'));
  const esbuild = require('esbuild');
  const entry = fileURLToPath(new URL(`../dist/${file}`, import.meta.url));
  const result = await esbuild.build({
    entryPoints: { entry },
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    outdir: 'out',
    write: false,
    logLevel: 'silent',
  });
  const size = (code) => ({ minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength });
  const [main] = result.outputFiles.filter((f) => /[\\/]entry\.js$/.test(f.path));
  const lazy = result.outputFiles.filter((f) => f !== main && f.path.endsWith('.js'));
  const lazySizes = lazy.map((f) => size(f.contents));
  return {
    ...size(main.contents),
    lazy: {
      minified: lazySizes.reduce((sum, s) => sum + s.minified, 0),
      gzipped: lazySizes.reduce((sum, s) => sum + s.gzipped, 0),
    },
  };
}

/** @returns {Promise<Size & { lazy: Size }>} dist/index.js as a seller's bundle, and what it loads on first use */
export async function measure() {
  return bundle('index.js');
}

/** @returns {Promise<Size>} dist/webhooks.js as a seller's bundle */
export async function measureWebhooks() {
  return bundle('webhooks.js');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { minified, gzipped, lazy } = await measure();
  const webhooks = await measureWebhooks();
  const verdict = (bytes, budget) => (bytes <= budget ? 'within' : 'OVER');
  console.log(`@customers-api/sdk ESM bundle (with openapi-fetch): ${minified} B minified, ${gzipped} B gzipped, ${verdict(gzipped, BUDGET_BYTES)} the ${BUDGET_BYTES} B budget`);
  console.log(`  loaded on first use (the webhook verifier): ${lazy.minified} B minified, ${lazy.gzipped} B gzipped`);
  console.log(`@customers-api/sdk/webhooks alone: ${webhooks.minified} B minified, ${webhooks.gzipped} B gzipped, ${verdict(webhooks.gzipped, WEBHOOKS_BUDGET_BYTES)} the ${WEBHOOKS_BUDGET_BYTES} B budget`);
  if (gzipped > BUDGET_BYTES || webhooks.gzipped > WEBHOOKS_BUDGET_BYTES) process.exit(1);
}
