import { describe, expect, it } from 'vitest';
import { isJsonContentType } from './read-json-body.js';

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
