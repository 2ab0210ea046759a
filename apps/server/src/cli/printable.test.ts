import { describe, expect, it } from 'vitest';
import { printable } from './printable.js';

describe('printable', () => {
  it('escapes controls, DEL, C1, bidi and other format characters, lone surrogates and line separators', () => {
    expect(printable('a\u0000b\u0007c\u001b[31md\ne\rf\tg\u007fh\u0085i\u009bj')).toBe(
      'a\\u0000b\\u0007c\\u001b[31md\\u000ae\\u000df\\u0009g\\u007fh\\u0085i\\u009bj',
    );
    expect(printable('\u202eevil\u202c \u2066x\u2069 \u200e\u200f\u061c \u200b \ud800 \u2028\u2029')).toBe(
      '\\u202eevil\\u202c \\u2066x\\u2069 \\u200e\\u200f\\u061c \\u200b \\ud800 \\u2028\\u2029',
    );
  });
  it('leaves printable text alone, non-Latin and astral included', () => {
    const text = 'https://bücher.example/hooks?q=東京 😀 ש ü\u00a0';
    expect(printable(text)).toBe(text);
  });
});
