import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './node-flags.js';

const MB = 1024 * 1024;

/** The young generation's capacity (both semi-spaces) of a Node process started with `flags`. */
function youngGenerationOf(flags: readonly string[]): number {
  const script = `const v8 = require('node:v8');
    const s = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    let keep = [];
    for (let i = 0; i < 2e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 50000) keep = []; }
    process.stdout.write(String(v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size));`;
  const run = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout);
}

describe('the Node flags the server starts with', () => {
  it('are what the bin and the start script pass to Node', () => {
    const shebang = readFileSync(new URL('../cli.ts', import.meta.url), 'utf8').split('\n')[0];
    expect(shebang).toBe(`#!/usr/bin/env -S node ${SERVER_NODE_FLAGS.join(' ')}`);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} dist/cli.js serve`);
  });

  it('keep the young generation at 8 MB under allocation, where Node alone grows it past that', () => {
    expect(youngGenerationOf(SERVER_NODE_FLAGS)).toBeLessThanOrEqual(8 * MB);
    expect(youngGenerationOf([])).toBeGreaterThan(8 * MB);
  });
});
