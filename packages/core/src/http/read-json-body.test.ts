import { describe, expect, it } from 'vitest';
import { isApiError } from '../errors/api-error.js';
import { BODY_LIMIT_BYTES, isJsonContentType, readJsonBody } from './read-json-body.js';

describe('isJsonContentType', () => {
  it('accepts application/json with parameters in any case, and nothing else', () => {
    for (const type of ['application/json', 'Application/JSON', 'application/json; charset=utf-8', ' application/json ;x=y']) {
      expect(isJsonContentType(type), type).toBe(true);
    }
    for (const type of [null, undefined, '', 'text/json', 'application/merge-patch+json', 'application/jsonx', 'text/plain']) {
      expect(isJsonContentType(type), String(type)).toBe(false);
    }
  });
});

describe('readJsonBody', () => {
  const json = (name: string) => (name === 'content-type' ? 'application/json' : undefined);
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const status = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return isApiError(error) ? `${error.status} ${error.message}` : String(error);
    }
    return 'accepted';
  };

  it('rejects invalid UTF-8 inside a JSON string with 400 instead of reading it as U+FFFD', () => {
    const bytes = Uint8Array.from([...utf8('{"first_name":"A'), 0xff, ...utf8('"}')]);
    expect(status(() => readJsonBody(json, bytes))).toBe('400 body must be valid JSON (UTF-8)');
    // The same text with a real U+FFFD is valid.
    expect(readJsonBody(json, utf8('{"first_name":"A\uFFFD"}'))).toEqual({ first_name: 'A\uFFFD' });
  });

  it('checks in the documented order: empty 400, media type 415, size 413, JSON 400, object 400', () => {
    const text = (name: string) => (name === 'content-type' ? 'text/plain' : undefined);
    expect(status(() => readJsonBody(json, null))).toBe('400 body must be a JSON object');
    expect(status(() => readJsonBody(json, new Uint8Array()))).toBe('400 body must be a JSON object');
    expect(status(() => readJsonBody(text, utf8('{}')))).toMatch(/^415 /);
    expect(status(() => readJsonBody(text, utf8('x'.repeat(20)), 10))).toMatch(/^415 /);
    expect(status(() => readJsonBody(json, utf8('{"a":"12345"}'), 12))).toMatch(/^413 /);
    expect(readJsonBody(json, utf8('{"a":"1234"}'), 12)).toEqual({ a: '1234' });
    expect(status(() => readJsonBody(json, utf8('{'), 12))).toBe('400 body must be valid JSON (UTF-8)');
    for (const body of ['[]', 'null', '"x"', '1']) {
      expect(status(() => readJsonBody(json, utf8(body))), body).toBe('400 body must be a JSON object');
    }
  });

  it('allows 64 KiB by default and refuses one byte more', () => {
    const body = (size: number) => utf8(`{"a":"${'x'.repeat(size - 8)}"}`);
    expect(BODY_LIMIT_BYTES).toBe(65_536);
    expect(status(() => readJsonBody(json, body(65_536)))).toBe('accepted');
    expect(status(() => readJsonBody(json, body(65_537)))).toMatch(/^413 /);
  });
});
