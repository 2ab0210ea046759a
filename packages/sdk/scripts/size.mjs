// Bundles dist/index.js the way a seller's bundler would (openapi-fetch included, minified, code behind a dynamic
// import() split into its own chunk, loaded on first use), gzips it and fails above the budget. What counts is the entry chunk plus every
// chunk it imports statically (a chunk shared with the lazy verifier loads up front too); chunks reached only through
// import() are reported apart. Also measures the `@customers-api/sdk/webhooks` entry alone (a receiver that only
// verifies), and a plain `esbuild --bundle` of a three-line use without splitting (ESM and CommonJS), the other figure
// the README gives. Run after `build`: `node scripts/size.mjs`. The vitest suite runs it too.
// `node scripts/size.mjs --exports` prints what each export costs imported alone (tree-shaken), and
// `--modules` each source module's share of the minified bundle (bundled from src/, esbuild's metafile).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * The client's bundle (what loads when a seller imports `@customers-api/sdk`: entry + static chunks) may not grow
 * past this: issue 27's 6 kB goal, the regression guard the tests enforce. Reached with openapi-fetch writing the
 * query (its `serializePrimitiveParam`: every query parameter of the contract is a primitive, so its array and
 * object serializers stay out) and by loading everything off the happy path (failure, abort and `toArray` texts,
 * retry rules and delays, deprecation notices, the logger's redaction) on first use, from one lazy chunk that
 * imports nothing at run time (`src/internal/error-hints.ts`, reached through `src/internal/slow-path.ts`).
 */
export const BUDGET_BYTES = 6 * 1024;
/**
 * Issue 27's goal for the same bundle, printed beside the figure. Missed by 127 B after session 10's resources and
 * issue 40's frictions (6,271 B against a 6,272 B budget); issue 40 brought the entry back to about 5.7 kB with the
 * test-data resource added, and the budget is the goal again.
 */
export const GOAL_BYTES = 6 * 1024;
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
 * @returns {Promise<Size & { lazy: Size }>} the entry's chunk with the chunks it imports statically, and the
 *   chunks only import() reaches (together)
 */
async function measureEntry(file) {
  const result = await bundle({ entryPoints: { entry: here(`../dist/${file}`) }, splitting: true, outdir: 'out', metafile: true });
  const size = (code) => ({ minified: code.byteLength, gzipped: gzipped(code) });
  const sum = (files) => files.map((f) => size(f.contents)).reduce((a, b) => ({ minified: a.minified + b.minified, gzipped: a.gzipped + b.gzipped }), { minified: 0, gzipped: 0 });
  const js = result.outputFiles.filter((f) => f.path.endsWith('.js'));
  const byName = new Map(js.map((f) => [f.path.split(/[\\/]/).pop(), f]));
  // The entry and, transitively, every chunk it imports with a static import statement.
  const eager = new Set();
  const visit = (name) => {
    if (eager.has(name)) return;
    eager.add(name);
    const meta = result.metafile.outputs[`out/${name}`];
    for (const imported of meta.imports) if (imported.kind === 'import-statement') visit(imported.path.split('/').pop());
  };
  visit('entry.js');
  return { ...sum([...eager].map((n) => byName.get(n))), lazy: sum(js.filter((f) => !eager.has(f.path.split(/[\\/]/).pop()))) };
}

/** @returns {Promise<Size & { lazy: Size }>} dist/index.js as a seller's bundle, and what it loads on first use */
export async function measure() {
  return measureEntry('index.js');
}

/** A three-line use of the client, as a seller writes it: what a plain `esbuild --bundle` of it ships. */
const THREE_LINES = (from) => `import { CustomersClient } from ${JSON.stringify(from)};
const client = new CustomersClient({ apiKey: process.env.CUSTOMERS_API_KEY });
console.log(await client.customers.get(process.argv[2]));`;

/**
 * The same client without code splitting: a plain `esbuild --bundle --minify` of a three-line use, one file with the
 * lazy chunk inlined (what a bundler without splitting, or a single-file Lambda/script, ships), from the ESM build
 * and from the CommonJS one (`require`). Reported beside the split figure; not a budget.
 * @returns {Promise<{ esm: Size, cjs: Size }>}
 */
export async function measurePlainBundle() {
  const size = (result) => ({ minified: result.outputFiles[0].contents.byteLength, gzipped: gzipped(result.outputFiles[0].contents) });
  const esm = await bundle({ stdin: { contents: THREE_LINES(here('../dist/index.js')), resolveDir: here('.') }, format: 'esm', platform: 'node' });
  const cjsUse = THREE_LINES(here('../dist/index.cjs'))
    .replace(/^import \{ CustomersClient \} from (.*);$/m, 'const { CustomersClient } = require($1);')
    .replace(/console\.log\(await (.*)\);$/m, '$1.then(console.log);');
  const cjs = await bundle({ stdin: { contents: cjsUse, resolveDir: here('.') }, format: 'cjs', platform: 'node' });
  return { esm: size(esm), cjs: size(cjs) };
}

/** @returns {Promise<Size>} dist/webhooks.js as a seller's bundle */
export async function measureWebhooks() {
  return measureEntry('webhooks.js');
}

/** Where the bytes are: minified bytes per source module. */
async function modules() {
  const define = { __SDK_VERSION__: '"0.0.0"' };
  const whole = await bundle({ entryPoints: [here('../src/index.ts')], metafile: true, define });
  const { inputs, bytes } = Object.values(whole.metafile.outputs)[0];
  const rows = Object.entries(inputs).sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput);
  for (const [file, { bytesInOutput }] of rows.filter(([, i]) => i.bytesInOutput > 0)) {
    const share = ((bytesInOutput / bytes) * 100).toFixed(1).padStart(5);
    console.log(`${String(bytesInOutput).padStart(7)} B ${share}%  ${file.replace(/^.*node_modules\//, '')}`);
  }
}

/** What each runtime export of dist/index.js costs imported alone: its tree-shaken bundle, gzipped (lazy chunks apart). */
export async function measureExports() {
  const names = Object.keys(await import(here('../dist/index.js'))).sort();
  const rows = [];
  for (const name of names) {
    const contents = `export { ${name} } from ${JSON.stringify(here('../dist/index.js'))};`;
    const result = await bundle({ stdin: { contents, resolveDir: here('.') }, splitting: true, outdir: 'out', metafile: true, format: 'esm' });
    const entry = result.outputFiles.find((f) => /[\\/]stdin\.js$/.test(f.path)) ?? result.outputFiles[0];
    rows.push({ name, gzipped: gzipped(entry.contents) });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { minified, gzipped: zipped, lazy } = await measure();
  const webhooks = await measureWebhooks();
  const verdict = (bytes, budget) => (bytes <= budget ? 'within' : 'OVER');
  console.log(`@customers-api/sdk entry chunk + its static imports: ${minified} B minified, ${zipped} B gzipped, ${verdict(zipped, BUDGET_BYTES)} the ${BUDGET_BYTES} B budget, ${verdict(zipped, GOAL_BYTES)} the ${GOAL_BYTES} B goal`);
  console.log(`  loaded on first use (the webhook verifier; the failure, retry and logging helpers): ${lazy.minified} B minified, ${lazy.gzipped} B gzipped`);
  console.log(`@customers-api/sdk/webhooks alone: ${webhooks.minified} B minified, ${webhooks.gzipped} B gzipped, ${verdict(webhooks.gzipped, WEBHOOKS_BUDGET_BYTES)} the ${WEBHOOKS_BUDGET_BYTES} B budget`);
  const plain = await measurePlainBundle();
  console.log(`a three-line use, plain esbuild --bundle --minify (no splitting, lazy code inlined): ESM ${plain.esm.minified} B minified, ${plain.esm.gzipped} B gzipped; CommonJS ${plain.cjs.minified} B minified, ${plain.cjs.gzipped} B gzipped`);
  if (process.argv.includes('--exports')) {
    console.log('each export imported alone (tree-shaken, gzipped; the lazy verifier apart):');
    for (const { name, gzipped: bytes } of await measureExports()) console.log(`${String(bytes).padStart(7)} B  ${name}`);
  }
  if (process.argv.includes('--modules')) await modules();
  if (zipped > BUDGET_BYTES || webhooks.gzipped > WEBHOOKS_BUDGET_BYTES) process.exit(1);
}
