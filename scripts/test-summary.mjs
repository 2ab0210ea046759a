// Prints one closing line over every package's vitest JSON report ("N passed, N failed"), and the release dry
// run's checks (test-results/release-dry-run.json, same counters), so a reader of CI's log sees the total without
// scrolling through turbo's interleaved output. A test file that broke as a whole (its tests then show as skipped)
// is counted too, and fails the summary.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
let brokenSuites = 0; // test files that failed as a whole: their tests count as skipped, not failed
const rows = [];
const failures = []; // each failed test (or broken file) with the first lines of its message: CI shows only the tail
const firstLines = (messages) => String(messages?.[0] ?? '').split('\n').slice(0, 6).map((line) => `      ${line.slice(0, 200)}`).join('\n');
function add(label, report) {
  if (!existsSync(report)) return;
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  skipped += result.numPendingTests + (result.numTodoTests ?? 0);
  let broken = 0;
  for (const file of result.testResults ?? []) {
    const where = file.name.replace(`${process.cwd()}/`, '');
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) failures.push(`  ${where} > ${test.fullName}\n${firstLines(test.failureMessages)}`);
    // A test file that failed with none of its tests failing broke as a whole (a beforeAll, an import).
    if (file.status === 'failed' && failedTests.length === 0) {
      broken++;
      failures.push(`  ${where} (failed to run)\n${firstLines([file.message])}`);
    }
  }
  brokenSuites += broken;
  const suites = broken ? `, ${broken} test file${broken === 1 ? '' : 's'} failed to run` : '';
  rows.push(`  ${label}: ${result.numPassedTests} passed, ${result.numFailedTests} failed${suites}`);
}
for (const group of ['packages', 'apps']) {
  if (!existsSync(group)) continue;
  for (const name of readdirSync(group)) add(`${group}/${name}`, join(group, name, 'test-results', 'vitest.json'));
}
add('release dry run (packed tarballs, examples/)', join('test-results', 'release-dry-run.json'));
if (failures.length) console.log(`failed:\n${failures.join('\n')}`);
console.log(rows.join('\n'));
const broken = brokenSuites ? `, ${brokenSuites} test file${brokenSuites === 1 ? '' : 's'} failed to run` : '';
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${broken}`);
process.exit(failed > 0 || brokenSuites > 0 ? 1 : 0);
