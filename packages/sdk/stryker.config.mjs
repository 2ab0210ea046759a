// `pnpm mutation` (root) runs this: StrykerJS over the SDK's sources with its unit tests
// (vitest.mutation.config.ts leaves out the tests of the built package and of real servers).
// Incremental: results are reused from stryker-incremental.json (committed). See docs/mutation.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // pnpm does not hoist the runner next to @stryker-mutator/core, so name it instead of relying on discovery.
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: ['src/**/*.ts', '!src/**/*.test.ts', '!src/generated/**'],
  incremental: true,
  incrementalFile: 'stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  concurrency: 1,
  // Mutants in module-level code need a fresh module graph and the whole suite per mutant (minutes each);
  // Stryker reports them as ignored. The code they would change runs in every test anyway.
  ignoreStatic: true,
  timeoutMS: 10_000,
  // The floor: `pnpm mutation` fails when the score drops below it. Raise it as the score rises.
  thresholds: { high: 95, low: 90, break: 92 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
