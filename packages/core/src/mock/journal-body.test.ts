import { describe, expect, it } from 'vitest';
import { holdBody, JOURNAL_BODY_LIMIT_BYTES, journalBody, shownBody } from './journal-body.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('holdBody and journalBody', () => {
  it('keeps at most 8 KiB of a body, as text marked truncated', () => {
    const held = holdBody('POST', bytes(`[${'{},'.repeat(30_000)}{}]`))!;
    expect(held).toMatchObject({ json: false, truncated: true });
    expect(held.text.length).toBe(JOURNAL_BODY_LIMIT_BYTES);
    expect(shownBody(held)).toBe(held.text);
  });

  it('keeps nothing of an empty body or of GET, HEAD and DELETE', () => {
    expect(holdBody('POST', null)).toBeNull();
    expect(holdBody('POST', new Uint8Array())).toBeNull();
    for (const method of ['get', 'HEAD', 'DELETE']) expect(holdBody(method, bytes('{"a":1}'))).toBeNull();
  });

  it('parses JSON bodies and keeps other text', () => {
    expect(journalBody(bytes('{"a":1}'))).toEqual({ a: 1 });
    expect(journalBody(bytes('not json'))).toBe('not json');
    expect(journalBody(null)).toBeNull();
  });
});
