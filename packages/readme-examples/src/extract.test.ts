import { describe, expect, it } from 'vitest';
import { extractBlocks } from './extract';

describe('extractBlocks', () => {
  it('finds ts and typescript blocks with their README line, skipping other languages', () => {
    const md = ['# Title', '```sh', 'npm i x', '```', '```ts', 'const a = 1;', '```', 'text', '```typescript', 'let b;', 'b = 2;', '```'].join('\n');
    expect(extractBlocks(md).blocks).toEqual([
      { line: 6, index: 1, code: 'const a = 1;', noCheck: undefined },
      { line: 10, index: 2, code: 'let b;\nb = 2;', noCheck: undefined },
    ]);
  });

  it('does not read a ts fence inside another fenced block as code', () => {
    const md = ['````md', '```ts', 'broken(', '```', '````', '```ts', 'ok();', '```'].join('\n');
    expect(extractBlocks(md).blocks.map((b) => b.code)).toEqual(['ok();']);
  });

  it('reads a no-check reason and refuses no-check without one', () => {
    expect(extractBlocks('```ts no-check: a fragment\nx\n```').blocks[0]!.noCheck).toBe('a fragment');
    expect(() => extractBlocks('```ts no-check\nx\n```')).toThrow(/must say why/);
  });

  it('strips the indentation of a block nested in a list', () => {
    expect(extractBlocks('- item\n  ```ts\n  const a = 1;\n    nested;\n  ```').blocks[0]!.code).toBe('const a = 1;\n  nested;');
  });

  it('collects the declarations of every ts-prelude comment', () => {
    const md = 'x\n<!-- ts-prelude\ndeclare const id: string;\n-->\n```ts\nid;\n```\n<!-- ts-prelude declare const n: number; -->';
    expect(extractBlocks(md).prelude).toBe('declare const id: string;\ndeclare const n: number;');
  });
});
