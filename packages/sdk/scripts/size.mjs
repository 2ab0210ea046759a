// Bundles dist/index.js the way a seller's bundler would (openapi-fetch included, minified), gzips it and
// fails above the budget. Run after `build`: `node scripts/size.mjs`. The vitest suite runs it too.
// `node scripts/size.mjs --modules` also says where the bytes are: each source module's share of the minified
// bundle (bundled from src/, esbuild's metafile), and openapi-fetch's and the SDK's own code gzipped alone.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const BUDGET_BYTES = 8 * 1024;

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

/** @returns {Promise<{ minified: number, gzipped: number }>} */
export async function measure() {
  const code = (await bundle({ entryPoints: [here('../dist/index.js')] })).outputFiles[0].contents;
  return { minified: code.byteLength, gzipped: gzipped(code) };
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
  const { minified, gzipped } = await measure();
  const verdict = gzipped <= BUDGET_BYTES ? 'within' : 'OVER';
  console.log(`@customers-api/sdk ESM bundle (with openapi-fetch): ${minified} B minified, ${gzipped} B gzipped, ${verdict} the ${BUDGET_BYTES} B budget`);
  if (process.argv.includes('--modules')) await modules();
  if (gzipped > BUDGET_BYTES) process.exit(1);
}
