import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CodeBlock, extractBlocks } from './extract';
import { KNOWN_BROKEN } from './known-broken';
import { listReadmes } from './readmes';
import { type BlockError, typeCheckBlocks } from './type-check';

// Every ```ts block of every README compiles against the built packages (turbo builds them first).
const root = fileURLToPath(new URL('../../../', import.meta.url));
const readmes = listReadmes(root);

it('finds the READMEs of the root, the packages, the apps and the examples', () => {
  expect(readmes).toEqual(
    expect.arrayContaining(['README.md', 'packages/sdk/README.md', 'apps/server/README.md', 'examples/frontend-app/README.md']),
  );
});

for (const readme of readmes) {
  const { blocks, prelude } = extractBlocks(readFileSync(`${root}${readme}`, 'utf8'));
  const checked = blocks.filter((b) => b.noCheck === undefined);
  if (checked.length === 0) continue;
  const known = KNOWN_BROKEN[readme] ?? {};

  describe(readme, () => {
    let errors: Map<CodeBlock, BlockError[]>;
    beforeAll(() => {
      errors = typeCheckBlocks(readme, blocks, prelude);
    });

    it.each(checked.map((b) => [b.index, b.line, b] as const))('block %i (line %i) compiles', (index, _line, block) => {
      const found = errors.get(block)!;
      const report = found.map((e) => `${readme}:${e.line} ${e.code} ${e.message}`).join('\n');
      const expected = known[index];
      if (expected === undefined) {
        expect(report, `${readme} block ${index} does not compile`).toBe('');
      } else {
        expect(found.length, `${readme} block ${index} compiles now: remove it from known-broken.ts`).toBeGreaterThan(0);
        expect([...new Set(found.map((e) => e.code))].sort(), report).toEqual([...expected].sort());
      }
    });
  });
}

it('lists no known-broken block that does not exist', () => {
  for (const [readme, entries] of Object.entries(KNOWN_BROKEN)) {
    const count = readmes.includes(readme) ? extractBlocks(readFileSync(`${root}${readme}`, 'utf8')).blocks.length : 0;
    for (const index of Object.keys(entries)) expect(Number(index), readme).toBeLessThanOrEqual(count);
  }
});
