// The README's receiver test (the ```ts block after its `<!-- run: ... -->` marker) is compiled by
// packages/readme-examples; here it also runs, against the built package, so the example cannot go stale.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
// esbuild comes with tsup (as in scripts/size.mjs): strips the types without a type check (readme-examples checks them).
const esbuild = createRequire(createRequire(import.meta.url).resolve('tsup'))('esbuild') as {
  transform(code: string, options: Record<string, string>): Promise<{ code: string }>;
};
// Inside the package, so Node resolves `@customers-api/sdk/webhooks` to the built files (package self-reference).
const dir = here('../.tmp/readme-receiver');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first ```ts block after the `<!-- run:` marker. */
function receiverBlock(): string {
  const readme = readFileSync(here('../README.md'), 'utf8');
  const match = /<!-- run:[^>]*-->\s*```ts\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('README.md has no ```ts block after a <!-- run: --> marker');
  return match[1]!;
}

it("runs the README's receiver test with signWebhook, and it passes", async () => {
  const code = receiverBlock();
  expect(code).toContain('signWebhook(');
  const { code: js } = await esbuild.transform(code, { loader: 'ts', format: 'esm', target: 'node20' });
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/receiver.mjs`;
  writeFileSync(file, js);
  const run = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 30_000 });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
});
