// `customers-api-server --version` as a user runs it: the built bin prints the package's version and exits 0.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('customers-api-server --version', () => {
  it('prints the version of package.json from the built bin, exit 0', () => {
    const bin = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
    const run = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
  });

  it('prints what the bin passes, and -v is the same', async () => {
    for (const flag of ['--version', '-v']) {
      let out = '';
      const code = await runCli([flag], { out: (text) => (out += text), err: () => undefined, env: {}, version: '9.8.7' });
      expect(code).toBe(0);
      expect(out).toBe('9.8.7\n');
    }
  });
});
