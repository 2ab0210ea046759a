// Bundles dist/index.js the way a seller's bundler would (openapi-fetch included, minified), gzips it and
// fails above the budget. Run after `build`: `node scripts/size.mjs`. The vitest suite runs it too.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const BUDGET_BYTES = 8 * 1024;

/** @returns {Promise<{ minified: number, gzipped: number }>} */
export async function measure() {
  // esbuild comes with tsup; resolve it through tsup so no extra dependency is needed.
  const require = createRequire(createRequire(import.meta.url).resolve('tsup'));
  const esbuild = require('esbuild');
  const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { minified, gzipped } = await measure();
  const verdict = gzipped <= BUDGET_BYTES ? 'within' : 'OVER';
  console.log(`@customers-api/sdk ESM bundle (with openapi-fetch): ${minified} B minified, ${gzipped} B gzipped, ${verdict} the ${BUDGET_BYTES} B budget`);
  if (gzipped > BUDGET_BYTES) process.exit(1);
}
