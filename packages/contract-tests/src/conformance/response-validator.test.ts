import { describe, expect, it } from 'vitest';
import { loadOpenApi } from '../spec/load-documents.js';
import { createResponseValidator } from './response-validator.js';

const validator = createResponseValidator();
const json = (value: unknown) => JSON.stringify(value);
const headers = (extra: Record<string, string> = {}) =>
  new Headers({
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': 'req_1',
    'cache-control': 'no-store',
    'customers-version': '2026-11-26',
    ...extra,
  });
// The spec's own example customer: a documented response body must pass its own schema.
const customer = loadOpenApi().components.examples!.CustomerAda.value as Record<string, unknown> & { id: string };
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

  it('requires Customers-Version on every response, errors included, as a date', () => {
    const body = json({ error: 'Not Found', message: 'Customer not found' });
    for (const status of [200, 404]) {
      const bare = headers();
      bare.delete('customers-version');
      const verdict = validator.validate({ method: 'GET', path, status, headers: bare, body: status === 200 ? json(customer) : body });
      expect(verdict.violations).toEqual([`getCustomer ${status}: header Customers-Version is missing`]);
    }
    const malformed = validator.validate({ method: 'GET', path, status: 404, headers: headers({ 'customers-version': 'latest' }), body });
    expect(malformed.violations.join('\n')).toMatch(/header Customers-Version "latest" data must match pattern/);
  });

  it('requires every required header (Location on 201, WWW-Authenticate on 401) and checks header schemas', () => {
    const created = validator.validate({ method: 'POST', path: '/api/customers', status: 201, headers: headers(), body: json(customer) });
    expect(created.violations).toEqual(['createCustomer 201: header Location is missing']);
    const unauthorized = validator.validate({
      method: 'GET', path, status: 401, headers: headers({ 'cache-control': 'public, max-age=60' }),
      body: json({ error: 'Unauthorized', message: 'x' }),
    });
    expect(unauthorized.violations).toContain('getCustomer 401: header WWW-Authenticate is missing');
    expect(unauthorized.violations.some((v) => v.startsWith('getCustomer 401: header Cache-Control "public'))).toBe(true);
  });

  it('requires an empty 204 and knows every documented pair', () => {
    expect(validator.validate({ method: 'DELETE', path, status: 204, headers: headers(), body: 'x' }).violations).toHaveLength(1);
    expect(validator.documentedPairs()).toContain('createCustomer 403');
    expect(validator.validate({ method: 'GET', path: '/nope', status: 404, headers: headers(), body: '' }).operationId).toBeUndefined();
  });
});
