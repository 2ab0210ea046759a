import { describe, expect, it } from 'vitest';
import { operationFor } from './operation.js';

describe('operationFor', () => {
  it('maps every operation by method and path, HEAD as GET', () => {
    expect(operationFor('GET', '/api/customers')).toBe('listCustomers');
    expect(operationFor('HEAD', '/api/customers')).toBe('listCustomers');
    expect(operationFor('POST', '/api/customers')).toBe('createCustomer');
    expect(operationFor('get', '/api/customers/abc')).toBe('getCustomer');
    expect(operationFor('PATCH', '/api/customers/abc')).toBe('updateCustomer');
    expect(operationFor('DELETE', '/api/customers/abc')).toBe('deleteCustomer');
  });

  it('knows no operation for other methods or paths', () => {
    expect(operationFor('PUT', '/api/customers')).toBeUndefined();
    expect(operationFor('POST', '/api/customers/abc')).toBeUndefined();
    expect(operationFor('GET', '/api/customers/')).toBeUndefined();
    expect(operationFor('GET', '/api/customers/a/b')).toBeUndefined();
    expect(operationFor('GET', '/api/customersx')).toBeUndefined();
    expect(operationFor('GET', '/other')).toBeUndefined();
  });
});
