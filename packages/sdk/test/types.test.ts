import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

it('rejects wrong field types in consumer code (tsc against the published .d.ts)', async () => {
  expect(existsSync(`${root}dist/index.d.ts`), 'run build first').toBe(true);
  const tsc = `${root}node_modules/typescript/bin/tsc`;
  const result = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', 'test/types/tsconfig.fixture.json'], { cwd: root }).then(
    () => ({ code: 0, stdout: '' }),
    (e: { code: number; stdout: string }) => e,
  );
  expect(result.code).not.toBe(0);
  const lines = [...result.stdout.matchAll(/wrong-field\.ts\((\d+),\d+\): error (TS\d+)/g)].map((m) => Number(m[1]));
  // One error on each line marked `// ERROR` in the fixture, and nowhere else.
  expect([...new Set(lines)].sort((a, b) => a - b)).toEqual([8, 9, 10, 11, 13, 14, 15, 16]);
  // The errors name the spec's types instead of spelling out their structure.
  expect(result.stdout).toContain("but required in type 'CustomerCreate'");
  expect(result.stdout).toContain("Argument of type '{}' is not assignable to parameter of type 'CustomerUpdate'");
  expect(result.stdout).toContain("Type 'Customer' is not assignable to type 'number'");
});
