import { describe, expect, it } from 'vitest';
import { errors } from '../errors/registry.js';
import { isApiError } from '../errors/api-error.js';
import { parseCustomerCreate, parseCustomerUpdate } from './validate.js';

/** The error a parse throws. */
function refusal(parse: () => unknown) {
  try {
    parse();
  } catch (error) {
    if (isApiError(error)) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('the property a refusal is about (ApiError.field)', () => {
  it("is the spec validation's top-level property, whatever the keyword", () => {
    expect(refusal(() => parseCustomerUpdate({ first_name: '' })).field).toBe('first_name');
    expect(refusal(() => parseCustomerUpdate({ status: 'asleep' })).field).toBe('status');
    expect(refusal(() => parseCustomerUpdate({ colour: 'blue' })).field).toBe('colour');
    expect(refusal(() => parseCustomerCreate({ first_name: 'Ada', last_name: 'Lovelace' })).field).toBe('email');
    expect(refusal(() => parseCustomerCreate({ first_name: 'Ada', last_name: 'L', email: 'ada@example.com', address: { city: 5 } })).field).toBe('address');
  });

  it('is none for a refusal of the whole body', () => {
    expect(refusal(() => parseCustomerUpdate({})).field).toBeUndefined();
    expect(refusal(() => parseCustomerUpdate([])).field).toBeUndefined();
  });

  it("is the conflict's property, and never part of the public body", () => {
    const taken = errors.emailTaken('ada@example.com');
    expect(taken.field).toBe('email');
    expect(taken.toBody()).toEqual({ error: 'Conflict', message: 'A customer with email ada@example.com already exists' });
    expect(errors.badRequest('url must be an http or https URL', 'url').toBody()).toEqual({ error: 'Bad Request', message: 'url must be an http or https URL' });
  });
});
