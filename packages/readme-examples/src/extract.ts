/** A fenced TypeScript block of a README. */
export interface CodeBlock {
  /** 1-based line of the first code line in the README. */
  line: number;
  /** 1-based position among the README's TypeScript blocks. */
  index: number;
  code: string;
  /** The reason given after `no-check` in the info string (```ts no-check: why), else `undefined`. */
  noCheck: string | undefined;
}

/** What {@link extractBlocks} finds in one README. */
export interface Extracted {
  blocks: CodeBlock[];
  /**
   * Declarations every block of the README may use without declaring them, from an HTML comment
   * `<!-- ts-prelude ... -->` (invisible on GitHub and npm), e.g. `declare const client: CustomersClient;`.
   */
  prelude: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*(\S*)\s*(.*)$/;
const TS_LANGS = new Set(['ts', 'typescript', 'mts', 'cts']);
const PRELUDE = /<!--\s*ts-prelude\b([\s\S]*?)-->/g;

/**
 * The ```ts blocks of a markdown text and its prelude.
 *
 * @example
 * extractBlocks('# x\n```ts\nconst a = 1;\n```\n').blocks; // [{ line: 3, index: 1, code: 'const a = 1;', noCheck: undefined }]
 */
export function extractBlocks(markdown: string): Extracted {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open as unknown as [string, string, string, string, string];
    const start = i + 1;
    let end = start;
    while (end < lines.length && !isClosing(lines[end]!, fence)) end++;
    i = end;
    if (!TS_LANGS.has(lang.toLowerCase())) continue;
    const code = lines
      .slice(start, end)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
      .join('\n');
    blocks.push({ line: start + 1, index: blocks.length + 1, code, noCheck: noCheckReason(rest) });
  }
  const prelude = [...markdown.matchAll(PRELUDE)].map((m) => m[1]!.trim()).join('\n');
  return { blocks, prelude };
}

function isClosing(line: string, fence: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(fence) && /^[`~]+$/.test(trimmed);
}

/** `no-check: why` (or `no-check why`) → `why`; a `no-check` without a reason is refused. */
function noCheckReason(info: string): string | undefined {
  const match = /^no-check\b[:\s-]*(.*)$/.exec(info.trim());
  if (!match) return undefined;
  const reason = match[1]!.trim();
  if (!reason) throw new Error('A ```ts no-check block must say why, e.g. ```ts no-check: a fragment of the block above');
  return reason;
}
