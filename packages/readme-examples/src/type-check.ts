import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { CodeBlock } from './extract';

/** A compiler error in a block, at its line in the README. */
export interface BlockError {
  /** `TS2304` etc. */
  code: string;
  /** 1-based line in the README. */
  line: number;
  message: string;
}

// The blocks are compiled as files inside this package, so `import '@customers-api/sdk'`, `msw`, `undici` and
// `vitest` resolve through its devDependencies: the built workspace packages and the versions a reader installs.
const here = dirname(dirname(fileURLToPath(import.meta.url)));

/** What a seller's ESM project on Node would use, strict. */
const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
};

const libraryFiles = new Map<string, ts.SourceFile | undefined>();

/**
 * Type-checks every block of one README as its own ES module (top-level `await` allowed), with the README's
 * prelude declared globally, and returns each block's errors. Blocks marked `no-check` are not compiled.
 *
 * @example
 * const errors = typeCheckBlocks('packages/sdk/README.md', blocks, prelude);
 * errors.get(blocks[0]); // [] when the first block compiles
 */
export function typeCheckBlocks(readme: string, blocks: CodeBlock[], prelude: string): Map<CodeBlock, BlockError[]> {
  const folder = join(here, '.blocks', readme.replace(/[^\w.-]+/g, '_'));
  const virtual = new Map<string, string>();
  if (prelude) virtual.set(join(folder, 'prelude.ts'), prelude); // no import/export: a global script
  const fileOf = new Map<CodeBlock, string>();
  for (const block of blocks.filter((b) => b.noCheck === undefined)) {
    const file = join(folder, `block-${block.index}.ts`);
    fileOf.set(block, file);
    virtual.set(file, `${block.code}\nexport {};\n`);
  }

  const host = ts.createCompilerHost(OPTIONS, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists(f);
  host.readFile = (f) => virtual.get(f) ?? readFile(f);
  host.getSourceFile = (f, language, ...rest) => {
    const text = virtual.get(f);
    if (text !== undefined) return ts.createSourceFile(f, text, language, true);
    // Library and package declarations are the same for every README: parse them once.
    if (!libraryFiles.has(f)) libraryFiles.set(f, getSourceFile(f, language, ...rest));
    return libraryFiles.get(f);
  };

  const program = ts.createProgram([...virtual.keys()], OPTIONS, host);
  const result = new Map<CodeBlock, BlockError[]>();
  for (const [block, file] of fileOf) {
    const source = program.getSourceFile(file)!;
    result.set(
      block,
      ts.getPreEmitDiagnostics(program, source).map((d) => ({
        code: `TS${d.code}`,
        line: block.line + (d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0),
        message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
      })),
    );
  }
  return result;
}
