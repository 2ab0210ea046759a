import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the repository lives on GitHub: the only place a package README may link to for files it does not ship. */
export const REPOSITORY = 'https://github.com/customers-api/customers-api-toolkit';

/**
 * Commands and paths that work only in a clone of the repository, not where a package is installed from npm.
 * Each is a pattern and the reason, for the failure message. A package README says them through a link to
 * CONTRIBUTING.md instead.
 */
export const CLONE_ONLY: ReadonlyArray<readonly [RegExp, string]> = [
  [/npx -y pnpm@|\bpnpm (?:--filter|mock|bench|test|generate|build|lint|turbo|exec|release)\b/, 'a pnpm workspace command'],
  [/\bnode (?:scripts|test|src)\//, 'a script of the repository'],
  [/(?:^|[\s`(])(?:test|src|scripts)\/[\w./-]+\.(?:ts|mjs|cjs|js)\b/, 'a source or test file of the repository'],
  [/\.\.\/[\w./-]+/, 'a path outside the package'],
];

/** The files `npm pack` would put in the package's tarball, relative to the package folder. */
export function packedFiles(packageDir: string): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: packageDir, encoding: 'utf8' });
  const [report] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
  return new Set(report!.files.map((f) => f.path));
}

/** One problem of a packed README: its line and what is wrong. */
export interface PackedProblem {
  line: number;
  problem: string;
}

const LINK = /!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<(?:a|img)\b[^>]*\b(?:href|src)="([^"]+)"/g;

/**
 * What is wrong with a README read from the package's tarball: a relative link to a file the tarball does not
 * hold (on npm it is a dead link), or a command that needs a clone. Anchors, absolute URLs and links to files the
 * tarball ships pass; code blocks are read too, since a command in one is as broken as in the text.
 *
 * @example
 * checkPackedReadme('[x](../core/README.md)', new Set(['README.md'])); // [{ line: 1, problem: 'links to ../core/README.md, ...' }]
 */
export function checkPackedReadme(markdown: string, files: ReadonlySet<string>): PackedProblem[] {
  const problems: PackedProblem[] = [];
  markdown.split('\n').forEach((text, i) => {
    const line = i + 1;
    if (/^\s*<!--/.test(text)) return; // the ts-prelude and quick-start markers are not shown on npm
    for (const match of text.matchAll(LINK)) {
      const target = (match[1] ?? match[2])!;
      if (/^(?:[a-z][a-z0-9+.-]*:|#)/i.test(target)) continue; // https:, mailto:, an anchor
      const file = target.split('#')[0]!.replace(/^\.\//, '');
      if (!files.has(file)) problems.push({ line, problem: `links to ${target}, which the tarball does not contain: link to ${REPOSITORY}/blob/main/... instead` });
    }
    const prose = text.replace(/https?:\/\/\S+/g, '');
    for (const [pattern, what] of CLONE_ONLY) {
      const found = pattern.exec(prose);
      if (found) problems.push({ line, problem: `${what} (${found[0].trim()}) works only in a clone: move it to CONTRIBUTING.md` });
    }
  });
  return problems;
}

/** The README of a package folder as it would be packed (the tarball holds the file as it is). */
export function readPackedReadme(packageDir: string): string {
  return readFileSync(join(packageDir, 'README.md'), 'utf8');
}
