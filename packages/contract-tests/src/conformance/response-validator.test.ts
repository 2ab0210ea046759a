import { describe, expect, it } from 'vitest';
import { createResponseValidator } from './response-validator.js';

const validator = createResponseValidator();
const json = (value: unknown) => JSON.stringify(value);
const headers = (extra: Record<string, string> = {}) =>
  new Headers({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req_1', ...extra });
const customer = {
  id: '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61',
  seller_id: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  company_name: null,
  legal_entity: null,
  language: 'de',
  status: 'active',
  address_data: null,
  postal_redirect_address: null,
  source: 'api',
  created_at: '2026-11-25T09:30:00.000Z',
  updated_at: '2026-11-25T09:30:00.000Z',
};
const path = `/api/customers/${customer.id}`;

describe('response validator', () => {
  it('accepts a documented response', () => {
    const verdict = validator.validate({ method: 'GET', path, status: 200, headers: headers(), body: json(customer) });
    expect(verdict).toEqual({ operationId: 'getCustomer', violations: [] });
  });

  it('rejects an undocumented status', () => {
    const verdict = validator.validate({ method: 'GET', path, status: 409, headers: headers(), body: json({ error: 'Conflict', message: 'x' }) });
    expect(verdict.violations).toEqual(['getCustomer 409: status 409 is not documented']);
  });

  it('rejects a body that breaks the schema', () => {
    const verdict = validator.validate({ method: 'GET', path, status: 200, headers: headers(), body: json({ ...customer, status: 'gone', extra: 1 }) });
    expect(verdict.violations.join('\n')).toMatch(/status must be equal to one of the allowed values/);
    expect(verdict.violations.join('\n')).toMatch(/must NOT have additional properties/);
  });

  it('rejects an error body with extra properties and a missing X-Request-Id', () => {
    const verdict = validator.validate({
      method: 'DELETE', path, status: 404, headers: new Headers({ 'content-type': 'application/json' }),
      body: json({ error: 'Not Found', message: 'Customer not found', stack: 'at x' }),
    });
    expect(verdict.violations).toContain('deleteCustomer 404: header X-Request-Id is missing');
    expect(verdict.violations.some((v) => v.includes('additional properties'))).toBe(true);
  });

  it('requires an empty 204 and knows every documented pair', () => {
    expect(validator.validate({ method: 'DELETE', path, status: 204, headers: headers(), body: 'x' }).violations).toHaveLength(1);
    expect(validator.documentedPairs()).toContain('createCustomer 403');
    expect(validator.validate({ method: 'GET', path: '/nope', status: 404, headers: headers(), body: '' }).operationId).toBeUndefined();
  });
});
