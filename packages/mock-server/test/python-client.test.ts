// Runs the SDK-free Python 3 client test (standard library only) against the built bin, so `pnpm test` counts it.
// `pnpm test` installs python3 first when it is missing (scripts/ensure-python.mjs).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./python/journal_clock_test.py', import.meta.url));
const BIN = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

it('passes the Python client test: journal, clock, key expiry and webhook retries through the control API', () => {
  const python = process.env.PYTHON3_PATH ?? 'python3';
  const run = spawnSync(python, [SCRIPT], { env: { ...process.env, MOCK_BIN: BIN, NODE: process.execPath }, encoding: 'utf8', timeout: 60_000 });
  if (run.error && (run.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error(`python3 is missing (${python}): run node scripts/ensure-python.mjs, apt-get install python3, or set PYTHON3_PATH`);
  }
  const output = `${run.stdout}${run.stderr}`;
  expect(run.status, output).toBe(0);
  expect(output).toMatch(/Ran 4 tests/);
});
