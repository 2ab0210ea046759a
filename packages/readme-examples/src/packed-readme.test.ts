import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkPackedReadme, packedFiles } from './packed-readme';

// Each publishable package's README as npm shows it: from its tarball, where the rest of the repository is absent.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const PUBLISHED = ['sdk', 'core', 'msw', 'mock-server', 'cli'];

describe('checkPackedReadme', () => {
  const files = new Set(['README.md', 'api.md', 'dist/index.js']);

  it('refuses a relative link to a file outside the tarball, and accepts one inside, anchors and URLs', () => {
    const markdown = [
      '[core](../core/README.md) and [api](api.md) and [built](./dist/index.js)',
      '[here](#errors) [there](https://example.com/x.md) <img src="docs/logo.png">',
    ].join('\n');
    expect(checkPackedReadme(markdown, files).map((p) => [p.line, p.problem.split(',')[0]])).toEqual([
      [1, 'links to ../core/README.md'],
      [1, 'a path outside the package (../core/README.md) works only in a clone: move it to CONTRIBUTING.md'],
      [2, 'links to docs/logo.png'],
    ]);
  });

  it('refuses the commands that work only in a clone, in text and in code blocks', () => {
    const lines = [
      'npx -y pnpm@10.34.8 mock --port 4011',
      'node test/smoke/smoke.mjs',
      'pnpm --filter @customers-api/sdk run generate',
      'node scripts/size.mjs',
      'see `pnpm bench`',
      'this is `test/node/readme-example.test.ts`',
      'npx @customers-api/mock-server --port 4010', // works anywhere: allowed
      'npm install @customers-api/sdk', // allowed
    ];
    const found = checkPackedReadme(lines.join('\n'), files).map((p) => p.line);
    expect(found).toEqual([1, 2, 2, 3, 4, 4, 5, 6]);
  });
});

describe.each(PUBLISHED)('packages/%s/README.md as packed', (name) => {
  it('has no relative link to a file outside its tarball and no clone-only command', () => {
    const dir = `${root}packages/${name}`;
    const files = packedFiles(dir);
    expect(files.has('README.md')).toBe(true);
    const problems = checkPackedReadme(readFileSync(`${dir}/README.md`, 'utf8'), files);
    expect(problems.map((p) => `packages/${name}/README.md:${p.line} ${p.problem}`)).toEqual([]);
  });
});
