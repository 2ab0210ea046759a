import { describe, expect, it } from 'vitest';
import { isApiError } from '../errors/api-error.js';
import {
  canonicalCustomerId,
  isIdempotencyKey,
  isRequestId,
  parseCustomerCreate,
  parseCustomerUpdate,
} from './validate.js';

const valid = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

function rejection(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (isApiError(error)) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('parseCustomerCreate', () => {
  it('accepts the minimal and the full body of openapi.yaml', () => {
    expect(parseCustomerCreate(valid)).toEqual(valid);
    const full = {
      ...valid,
      company_name: 'Mustermann GmbH',
      legal_entity: 'GmbH',
      language: 'en',
      status: 'suspended',
      address_data: { street: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
      postal_redirect_address: null,
    };
    expect(parseCustomerCreate(full)).toEqual(full);
  });

  it.each([
    [{ last_name: 'L', email: 'a@b.de' }, 'first_name is required'],
    [{ first_name: 'A', email: 'a@b.de' }, 'last_name is required'],
    [{ first_name: 'A', last_name: 'L' }, 'email is required'],
    [{ ...valid, nickname: 'x' }, 'nickname is not an allowed property'],
    [{ ...valid, id: 'x' }, 'id is not an allowed property'],
    [{ ...valid, source: 'api' }, 'source is not an allowed property'],
    [{ ...valid, first_name: 'x'.repeat(101) }, 'first_name must be at most 100 characters'],
    [{ ...valid, first_name: '' }, 'first_name must not be empty'],
    [{ ...valid, first_name: 42 }, 'first_name must be a string'],
    [{ ...valid, first_name: null }, 'first_name must be a string'],
    [{ ...valid, email: 'not-an-email' }, 'email must be a valid email address'],
    [{ ...valid, email: `${'a'.repeat(250)}@b.de` }, 'email must be at most 254 characters'],
    [{ ...valid, company_name: 'x'.repeat(201) }, 'company_name must be at most 200 characters'],
    [{ ...valid, company_name: 7 }, 'company_name must be a string or null'],
    [{ ...valid, legal_entity: 'x'.repeat(101) }, 'legal_entity must be at most 100 characters'],
    [{ ...valid, language: 'fr' }, 'language must be one of: en, de, or null'],
    [{ ...valid, language: 1 }, 'language must be a string or null'],
    [{ ...valid, status: 'deleted' }, 'status must be one of: active, inactive, suspended'],
    [{ ...valid, status: null }, 'status must be a string'],
    [{ ...valid, address_data: 'Berlin' }, 'address_data must be an object or null'],
    [{ ...valid, address_data: { city: 'x'.repeat(101) } }, 'address_data.city must be at most 100 characters'],
    [{ ...valid, address_data: { street: 'x'.repeat(201) } }, 'address_data.street must be at most 200 characters'],
    [{ ...valid, address_data: { postal_code: 'x'.repeat(21) } }, 'address_data.postal_code must be at most 20 characters'],
    [{ ...valid, postal_redirect_address: { country: 'x'.repeat(101) } }, 'postal_redirect_address.country must be at most 100 characters'],
    [{ ...valid, address_data: { planet: 'Mars' } }, 'address_data.planet is not an allowed property'],
    [{ ...valid, address_data: { city: 5 } }, 'address_data.city must be a string'],
    [{ ...valid, first_name: 'A\u0000' }, 'first_name must not contain U+0000 or unpaired surrogates'],
    [{ ...valid, address_data: { city: '\ud800' } }, 'address_data.city must not contain U+0000 or unpaired surrogates'],
  ])('rejects %j: %s', (body, message) => {
    expect(rejection(() => parseCustomerCreate(body))).toEqual({ status: 400, message });
  });

  it('counts lengths in code points, not UTF-16 units', () => {
    expect(parseCustomerCreate({ ...valid, first_name: '😀'.repeat(100) }).first_name).toHaveLength(200);
    expect(rejection(() => parseCustomerCreate({ ...valid, first_name: '😀'.repeat(101) })).message).toBe(
      'first_name must be at most 100 characters',
    );
    expect(parseCustomerCreate({ ...valid, first_name: 'é'.repeat(100) })).toBeTruthy();
  });

  it('keeps text exactly as sent (no trimming)', () => {
    expect(parseCustomerCreate({ ...valid, first_name: '  Ada ' }).first_name).toBe('  Ada ');
  });

  it.each([null, [], 'text', 3, true])('rejects a body that is not an object: %j', (body) => {
    expect(rejection(() => parseCustomerCreate(body))).toEqual({
      status: 400,
      message: 'body must be a JSON object',
    });
  });

  it('names an own "__proto__" property as unknown instead of letting it through', () => {
    const body = JSON.parse('{"first_name":"A","last_name":"L","email":"a@b.de","__proto__":{"x":1}}');
    expect(rejection(() => parseCustomerCreate(body)).message).toBe('__proto__ is not an allowed property');
  });
});

describe('parseCustomerUpdate', () => {
  it('accepts any single property, and null for the nullable ones', () => {
    expect(parseCustomerUpdate({ status: 'suspended' })).toEqual({ status: 'suspended' });
    expect(parseCustomerUpdate({ language: null, address_data: null })).toEqual({
      language: null,
      address_data: null,
    });
  });

  it.each([
    [{}, 'body must have at least 1 property'],
    [{ status: 'gone' }, 'status must be one of: active, inactive, suspended'],
    [{ first_name: null }, 'first_name must be a string'],
    [{ email: 'nope' }, 'email must be a valid email address'],
    [{ created_at: '2026-01-01T00:00:00Z' }, 'created_at is not an allowed property'],
  ])('rejects %j: %s', (body, message) => {
    expect(rejection(() => parseCustomerUpdate(body))).toEqual({ status: 400, message });
  });
});

describe('canonicalCustomerId', () => {
  it('lower-cases UUIDs and refuses everything else', () => {
    const id = '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61';
    expect(canonicalCustomerId(id)).toBe(id);
    expect(canonicalCustomerId(id.toUpperCase())).toBe(id);
    expect(canonicalCustomerId(`urn:uuid:${id}`)).toBe(id);
    for (const bad of ['', '42', `${id}x`, `${id} `, 'null', '../etc', id.replaceAll('-', '')]) {
      expect(canonicalCustomerId(bad)).toBeUndefined();
    }
  });
});

describe('header values', () => {
  it('accepts Idempotency-Key values of 1 to 255 visible ASCII characters', () => {
    expect(isIdempotencyKey('k')).toBe(true);
    expect(isIdempotencyKey('~'.repeat(255))).toBe(true);
    expect(isIdempotencyKey('x'.repeat(256))).toBe(false);
    expect(isIdempotencyKey('')).toBe(false);
    expect(isIdempotencyKey('has space')).toBe(false);
    expect(isIdempotencyKey('ümlaut')).toBe(false);
  });

  it('accepts X-Request-Id values of 1 to 128 of A-Z a-z 0-9 . _ : -', () => {
    expect(isRequestId('req_7Hc2kQ9xWm')).toBe(true);
    expect(isRequestId('a.b:c-d_e')).toBe(true);
    expect(isRequestId('x'.repeat(128))).toBe(true);
    expect(isRequestId('x'.repeat(129))).toBe(false);
    expect(isRequestId('')).toBe(false);
    expect(isRequestId('a b')).toBe(false);
    expect(isRequestId('a\nb')).toBe(false);
  });
});

describe('messages of openapi.yaml', () => {
  it('words every 400 example of the contract exactly as the contract does', async () => {
    const { responseExampleMessages } = await import('../../test/spec.js');
    const produced = [
      rejection(() => parseCustomerCreate({ last_name: 'L', email: 'a@b.de' })).message,
      rejection(() => parseCustomerCreate({ ...valid, first_name: 'x'.repeat(101) })).message,
      rejection(() => parseCustomerCreate({ ...valid, email: 'nope' })).message,
      rejection(() => parseCustomerCreate({ ...valid, nickname: 'Ada' })).message,
    ];
    for (const message of produced) expect(responseExampleMessages('BadRequestCreate')).toContain(message);
    expect(responseExampleMessages('BadRequestUpdate')).toEqual([
      rejection(() => parseCustomerUpdate({})).message,
      rejection(() => parseCustomerUpdate({ status: 'gone' })).message,
    ]);
  });
});
