// What the per-package stryker.config.mjs files share; `pnpm mutation` runs them one package at a time.
// See docs/mutation.md for the scores, the floor and how incremental runs work.

/**
 * @param {{ vitestConfig: string }} options the package's vitest config for mutation runs
 * @returns {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export function strykerConfig({ vitestConfig }) {
  return {
    testRunner: 'vitest',
    // pnpm does not hoist the runner next to @stryker-mutator/core, so name it instead of relying on discovery.
    plugins: ['@stryker-mutator/vitest-runner'],
    vitest: { configFile: vitestConfig, related: false },
    coverageAnalysis: 'perTest',
    mutate: ['src/**/*.ts', '!src/**/*.test.ts', '!src/generated/**'],
    // Results are reused from this file (committed), so after a small change only the mutants in changed code,
    // or covered by changed tests, run again.
    incremental: true,
    incrementalFile: 'stryker-incremental.json',
    reporters: ['clear-text', 'progress', 'html'],
    htmlReporter: { fileName: 'reports/mutation/index.html' },
    // The machine is shared: one worker per run.
    concurrency: 1,
    // Mutants in module-level code need a fresh module graph and the whole suite per mutant; Stryker reports them
    // as ignored (not counted in the score). The code they would change runs on every import anyway.
    ignoreStatic: true,
    timeoutMS: 10_000,
    // The floor: `pnpm mutation` fails when a package's score drops below `break`. Raise it as the score rises.
    thresholds: { high: 95, low: 90, break: 96 },
    tempDirName: '.stryker-tmp',
    cleanTempDir: 'always',
  };
}
