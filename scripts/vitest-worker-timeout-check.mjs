// Checks that vitest's worker survives a long stall, as on a busy machine (issue 40): vitest 3.2's worker gives up
// on a call to the main process after 60 s ("[vitest-worker]: Timeout calling onTaskUpdate"), and a run whose every
// test passed exits 1. patches/vitest@3.2.7.patch removes that timeout, as vitest 4 did (vitest-dev/vitest#8297).
//   node scripts/vitest-worker-timeout-check.mjs
// Runs the workspace's vitest on a throwaway test that, after a first test ended (so the worker has reported to the
// main process), blocks its worker for 61 s with Atomics.wait: a stall like a starved one, without using the CPU.
// Exits 0 when vitest exits 0 and never printed the timeout; takes about 70 s.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// vitest is a dev dependency of every package; resolve it from one.
const vitestBin = join(dirname(createRequire(join(root, 'packages/sdk/package.json')).resolve('vitest/package.json')), 'vitest.mjs');
const dir = mkdtempSync(join(tmpdir(), 'vitest-worker-timeout-'));
try {
  writeFileSync(
    join(dir, 'stall.test.mjs'),
    `import { it } from 'vitest';
it('ends, so the worker reports it to the main process', () => {});
it('then stalls the worker for 61 s without using the CPU', () => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 61_000);
}, 120_000);
`,
  );
  writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['stall.test.mjs'] } };\n");
  const run = spawnSync(process.execPath, [vitestBin, 'run', '--root', dir], { encoding: 'utf8', env: { ...process.env, CI: '1' } });
  const output = `${run.stdout}${run.stderr}`;
  const timedOut = output.includes('Timeout calling');
  console.log(output.trim().split('\n').slice(-6).join('\n'));
  if (run.status !== 0 || timedOut) {
    console.error(`[vitest-worker-timeout-check] FAILED: vitest exited ${run.status}${timedOut ? ' with "Timeout calling"' : ''}; is patches/vitest@3.2.7.patch applied (pnpm install)?`);
    process.exit(1);
  }
  console.log('[vitest-worker-timeout-check] a worker stalled for 61 s: vitest exited 0 without a worker RPC timeout');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
