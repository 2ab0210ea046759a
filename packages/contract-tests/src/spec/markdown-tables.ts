/**
 * Reads the pipe tables that follow a heading in a Markdown document, as arrays of row objects keyed by the
 * header cells. Enough for SPEC.md's tables; not a general Markdown parser.
 */
export function tablesUnder(markdown: string, heading: string): Array<Array<Record<string, string>>> {
  const start = markdown.indexOf(heading);
  if (start < 0) throw new Error(`heading not found: ${heading}`);
  const rest = markdown.slice(start + heading.length);
  const nextHeading = rest.search(/\n#{1,3} /);
  const section = nextHeading < 0 ? rest : rest.slice(0, nextHeading);

  const tables: Array<Array<Record<string, string>>> = [];
  let lines: string[] = [];
  for (const line of [...section.split('\n'), '']) {
    if (line.trim().startsWith('|')) {
      lines.push(line);
    } else if (lines.length > 0) {
      tables.push(toRows(lines));
      lines = [];
    }
  }
  return tables;
}

function toRows(lines: string[]): Array<Record<string, string>> {
  const cells = (line: string) =>
    line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
  const [header, , ...body] = lines;
  const names = cells(header ?? '');
  return body.map((line) => Object.fromEntries(cells(line).map((cell, i) => [names[i] ?? `${i}`, cell])));
}

/** The values written in backticks in a cell, e.g. "Allowed: `en`, `de`." → ["en", "de"]. */
export const codeValues = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
