// `pnpm mutation` (root) runs this: StrykerJS over core's sources with the package's own vitest suite.
// Incremental: results are reused from stryker-incremental.json (committed), so only mutants in changed code
// or covered by changed tests run again. See docs/mutation.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // pnpm does not hoist the runner next to @stryker-mutator/core, so name it instead of relying on discovery.
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: ['src/**/*.ts', '!src/**/*.test.ts', '!src/generated/**', '!src/testing/**'],
  incremental: true,
  incrementalFile: 'stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  concurrency: 2,
  // Mutants in module-level code need a fresh module graph and the whole suite per mutant (minutes each);
  // Stryker reports them as ignored. The code they would change runs in every test anyway.
  ignoreStatic: true,
  timeoutMS: 10_000,
  // The floor: `pnpm mutation` fails when the score drops below it. Raise it as the score rises.
  thresholds: { high: 95, low: 90, break: 92 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
