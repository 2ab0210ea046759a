import { describe, expect, it } from 'vitest';
import type { AjvError } from './ajv-error.js';
import { messageFor } from './messages.js';

// The spec's schemas reach only some keywords (validate.test.ts words those through the generated validators);
// these are the rest of messageFor's contract: every keyword ajv can report, worded after the property.
function error(keyword: string, instancePath: string, params: Record<string, unknown> = {}): AjvError {
  return { keyword, instancePath, schemaPath: `#/${keyword}`, params };
}

const QUERY = { root: 'query', member: 'query parameter' };

describe('messageFor', () => {
  it.each([
    [error('minLength', '/code', { limit: 1 }), 'code must not be empty'],
    [error('minLength', '/code', { limit: 3 }), 'code must be at least 3 characters'],
    [error('maxLength', '/code', { limit: 1 }), 'code must be at most 1 character'],
    [error('minProperties', '', { limit: 2 }), 'body must have at least 2 properties'],
    [error('minProperties', '/address_data', { limit: 1 }), 'address_data must have at least 1 property'],
    [error('format', '/since', { format: 'date-time' }), 'since must be an ISO 8601 date-time with a time zone, such as 2026-11-25T09:30:00Z'],
    [error('format', '/site', { format: 'uri' }), 'site must be a valid uri'],
    [error('minimum', '/limit', { limit: 1 }), 'limit must be at least 1'],
    [error('maximum', '/limit', { limit: 100 }), 'limit must be at most 100'],
    [error('const', '/version', { allowedValue: 1 }), 'version must be 1'],
    [error('pattern', '/code', { pattern: '^[a-z]+$' }), 'code has an invalid format'],
    [error('multipleOf', '/count', { multipleOf: 2 }), 'count is invalid'],
    [error('type', '/count', { type: 'integer' }), 'count must be an integer'],
    [error('type', '/flags', { type: ['boolean', 'array'] }), 'flags must be a boolean or an array'],
    [error('type', '/x', { type: 'bigint' }), 'x must be bigint'],
  ])('words %j', (failure, message) => {
    expect(messageFor([failure])).toBe(message);
  });

  it('names the whole when nothing more precise is known', () => {
    expect(messageFor([])).toBe('body is invalid');
    expect(messageFor([], QUERY)).toBe('query is invalid');
    expect(messageFor([error('type', '', { type: 'object' })])).toBe('body must be an object');
    expect(messageFor([error('type', '', { type: 'object' })], QUERY)).toBe('query must be an object');
    expect(messageFor([error('required', '', { missingProperty: 'limit' })], QUERY)).toBe('limit is required');
    expect(messageFor([error('additionalProperties', '', { additionalProperty: 'page' })], QUERY)).toBe(
      'page is not an allowed query parameter',
    );
  });

  it('unescapes JSON pointer segments (RFC 6901: ~1 is /, ~0 is ~, in that order)', () => {
    expect(messageFor([error('maxLength', '/a~1b/c~0d/e~01', { limit: 5 })])).toBe('a/b.c~d.e~1 must be at most 5 characters');
    expect(messageFor([error('required', '/a~1b', { missingProperty: 'c' })])).toBe('a/b.c is required');
  });

  describe('for an anyOf (the spec’s "X or null" unions)', () => {
    const anyOf = (path: string) => error('anyOf', path);

    it('names the union when the value has neither type, the whole body at the root', () => {
      const types = (path: string) => [error('type', path, { type: 'string' }), error('type', path, { type: 'null' })];
      expect(messageFor([...types('/language'), anyOf('/language')])).toBe('language must be a string or null');
      expect(messageFor([...types(''), anyOf('')])).toBe('body must be a string or null');
    });

    it('reports only the errors of its own branches, at or below its property', () => {
      const earlier = error('required', '', { missingProperty: 'email' });
      const sibling = error('maxLength', '/language_note', { limit: 2 });
      const branches = [error('type', '/language', { type: 'string' }), error('type', '/language', { type: 'null' })];
      expect(messageFor([earlier, sibling, ...branches, anyOf('/language')])).toBe('language must be a string or null');
      const deeper = error('maxLength', '/address/city', { limit: 3 });
      expect(messageFor([sibling, deeper, error('type', '/address', { type: 'null' }), anyOf('/address')])).toBe(
        'address.city must be at most 3 characters',
      );
    });

    it('lists an enum’s values, with "or null" only when null was a branch', () => {
      const enumOf = error('enum', '/language', { allowedValues: ['en', 'de'] });
      const isNull = error('type', '/language', { type: 'null' });
      expect(messageFor([enumOf, isNull, anyOf('/language')])).toBe('language must be one of: en, de, or null');
      const otherEnum = error('enum', '/language', { allowedValues: ['fr'] });
      expect(messageFor([enumOf, otherEnum, anyOf('/language')])).toBe('language must be one of: en, de');
    });

    it('reports the branch keyword that failed when the value had the branch’s type', () => {
      const isNull = error('type', '/code', { type: 'null' });
      expect(messageFor([isNull, error('minLength', '/code', { limit: 1 }), anyOf('/code')])).toBe('code must not be empty');
      expect(messageFor([isNull, anyOf('/code')])).toBe('code must be null');
    });
  });
});
