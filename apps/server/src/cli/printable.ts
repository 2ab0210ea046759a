// Characters a terminal acts on or draws other than they read: controls (ESC starts colour and cursor sequences,
// BEL rings, CR and newline redraw a line), format characters (the bidi overrides of "Trojan Source", zero-width
// ones), lone surrogates and the Unicode line and paragraph separators.
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/**
 * Text for a CLI listing with every non-printable character written as a `\uXXXX` escape, so stored text (a URL,
 * a key name, a delivery error) shows the operator what it holds instead of acting on their terminal.
 *
 * @example
 * printable('https://x.example/\u001b[2J'); // 'https://x.example/\\u001b[2J'
 */
export function printable(text: string): string {
  return text.replace(NON_PRINTABLE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
