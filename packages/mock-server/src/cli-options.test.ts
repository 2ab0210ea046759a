import { describe, expect, it } from 'vitest';
import { parseCliOptions } from './cli-options.js';

describe('parseCliOptions', () => {
  it('takes --journal-size and --control-token, with a journal of 1000 and no token by default', () => {
    expect(parseCliOptions([])).toMatchObject({ journalSize: 1000, controlToken: undefined });
    expect(parseCliOptions(['--journal-size', '5', '--control-token', 'a-token-of-16-chars'])).toMatchObject({
      journalSize: 5,
      controlToken: 'a-token-of-16-chars',
    });
  });

  it('refuses a bad journal size or a short token, saying what it takes', () => {
    for (const size of ['0', '1e3', '01', 'many', '-1'].map((n) => `--journal-size=${n}`)) expect(() => parseCliOptions([size])).toThrow(/--journal-size must be a whole number/);
    expect(() => parseCliOptions(['--control-token', 'short'])).toThrow(/at least 16 printable characters/);
    expect(() => parseCliOptions(['--control-token', 'has a space in it ok'])).toThrow(/without spaces/);
  });
});
