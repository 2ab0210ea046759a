// Bundles dist/index.js the way a seller's bundler would (openapi-fetch included, minified, code behind a dynamic
// import() split into its own chunk, loaded on first use), gzips it and fails above the budget. Also measures
// the `@customers-api/sdk/webhooks` entry alone (a receiver that only verifies). Run after `build`:
// `node scripts/size.mjs`. The vitest suite runs it too.
// `node scripts/size.mjs --modules` also says where the bytes are: each source module's share of the minified
// bundle (bundled from src/, esbuild's metafile), and openapi-fetch's and the SDK's own code gzipped alone.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The client's bundle: what loads when a seller imports `@customers-api/sdk`. */
export const BUDGET_BYTES = 8 * 1024;
/** `@customers-api/sdk/webhooks` alone: the verifier and its errors. */
export const WEBHOOKS_BUDGET_BYTES = 3 * 1024;

// esbuild comes with tsup; resolve it through tsup so no extra dependency is needed.
const esbuild = createRequire(createRequire(import.meta.url).resolve('tsup'))('esbuild');
const gzipped = (code) => gzipSync(code, { level: 9 }).byteLength;

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** What a seller's bundler makes of the entry in `options`: ESM, minified, dependencies included unless `external`. */
function bundle(options) {
  return esbuild.build({
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
    ...options,
  });
}

/** @typedef {{ minified: number, gzipped: number }} Size */

/**
 * @param {string} file a file of dist/
 * @returns {Promise<Size & { lazy: Size }>} the entry's bundle, and the chunks it loads on first use (together)
 */
async function measureEntry(file) {
  const result = await bundle({ entryPoints: { entry: here(`../dist/${file}`) }, splitting: true, outdir: 'out' });
  const size = (code) => ({ minified: code.byteLength, gzipped: gzipped(code) });
  const [main] = result.outputFiles.filter((f) => /[\\/]entry\.js$/.test(f.path));
  const lazy = result.outputFiles.filter((f) => f !== main && f.path.endsWith('.js')).map((f) => size(f.contents));
  return {
    ...size(main.contents),
    lazy: {
      minified: lazy.reduce((sum, s) => sum + s.minified, 0),
      gzipped: lazy.reduce((sum, s) => sum + s.gzipped, 0),
    },
  };
}

/** @returns {Promise<Size & { lazy: Size }>} dist/index.js as a seller's bundle, and what it loads on first use */
export async function measure() {
  return measureEntry('index.js');
}

/** @returns {Promise<Size>} dist/webhooks.js as a seller's bundle */
export async function measureWebhooks() {
  return measureEntry('webhooks.js');
}

/** Where the bytes are: minified bytes per source module, and the two halves gzipped on their own. */
async function modules() {
  const define = { __SDK_VERSION__: '"0.0.0"' };
  const whole = await bundle({ entryPoints: [here('../src/index.ts')], metafile: true, define });
  const { inputs, bytes } = Object.values(whole.metafile.outputs)[0];
  const rows = Object.entries(inputs).sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput);
  for (const [file, { bytesInOutput }] of rows.filter(([, i]) => i.bytesInOutput > 0)) {
    const share = ((bytesInOutput / bytes) * 100).toFixed(1).padStart(5);
    console.log(`${String(bytesInOutput).padStart(7)} B ${share}%  ${file.replace(/^.*node_modules\//, '')}`);
  }
  const own = (await bundle({ entryPoints: [here('../src/index.ts')], define, external: ['openapi-fetch'] })).outputFiles[0].contents;
  const stdin = { contents: "export { default } from 'openapi-fetch';", resolveDir: here('.') };
  const fetchOnly = (await bundle({ stdin })).outputFiles[0].contents;
  console.log(`gzipped alone: the SDK's own code ${gzipped(own)} B, openapi-fetch's createClient ${gzipped(fetchOnly)} B`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { minified, gzipped: zipped, lazy } = await measure();
  const webhooks = await measureWebhooks();
  const verdict = (bytes, budget) => (bytes <= budget ? 'within' : 'OVER');
  console.log(`@customers-api/sdk ESM bundle (with openapi-fetch): ${minified} B minified, ${zipped} B gzipped, ${verdict(zipped, BUDGET_BYTES)} the ${BUDGET_BYTES} B budget`);
  console.log(`  loaded on first use (the webhook verifier): ${lazy.minified} B minified, ${lazy.gzipped} B gzipped`);
  console.log(`@customers-api/sdk/webhooks alone: ${webhooks.minified} B minified, ${webhooks.gzipped} B gzipped, ${verdict(webhooks.gzipped, WEBHOOKS_BUDGET_BYTES)} the ${WEBHOOKS_BUDGET_BYTES} B budget`);
  if (process.argv.includes('--modules')) await modules();
  if (zipped > BUDGET_BYTES || webhooks.gzipped > WEBHOOKS_BUDGET_BYTES) process.exit(1);
}
