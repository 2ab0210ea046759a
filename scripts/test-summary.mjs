// Prints one closing line over every package's vitest JSON report ("N passed, N failed"), and the release dry
// run's checks (test-results/release-dry-run.json, same counters), so a reader of CI's log sees the total without
// scrolling through turbo's interleaved output.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
function add(label, report) {
  if (!existsSync(report)) return;
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  skipped += result.numPendingTests + (result.numTodoTests ?? 0);
  rows.push(`  ${label}: ${result.numPassedTests} passed, ${result.numFailedTests} failed`);
}
for (const group of ['packages', 'apps']) {
  if (!existsSync(group)) continue;
  for (const name of readdirSync(group)) add(`${group}/${name}`, join(group, name, 'test-results', 'vitest.json'));
}
add('release dry run (packed tarballs, examples/)', join('test-results', 'release-dry-run.json'));
console.log(rows.join('\n'));
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
