import { describe, expect, it } from 'vitest';
import { apiPaths, routeRequest } from './router.js';

const ID = '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];
/** openapi.yaml's paths × methods: the operation each one reaches, anything else is 405 on a known path. */
const MATRIX: Record<string, Record<string, string>> = {
  '/api/customers': { GET: 'listCustomers', HEAD: 'listCustomers', POST: 'createCustomer' },
  [`/api/customers/${ID}`]: { GET: 'getCustomer', HEAD: 'getCustomer', PATCH: 'updateCustomer', DELETE: 'deleteCustomer' },
};

describe('routeRequest', () => {
  for (const [path, operations] of Object.entries(MATRIX)) {
    for (const method of METHODS) {
      const expected = operations[method];
      it(`${method} ${path.replace(ID, '{id}')} → ${expected ?? '405'}`, () => {
        const match = routeRequest(method, path);
        if (expected === undefined) {
          expect(match).toEqual({ kind: 'method_not_allowed', allowed: Object.keys(operations) });
          return;
        }
        if (match.kind !== 'operation') throw new Error(`expected an operation, got ${match.kind}`);
        expect(match.operation.id).toBe(expected);
        expect(match.head).toBe(method === 'HEAD');
        expect(match.params).toEqual(path.endsWith(ID) ? { id: ID } : {});
      });
    }
  }

  it('matches methods in any letter case', () => {
    const match = routeRequest('patch', `/api/customers/${ID}`);
    expect(match.kind === 'operation' && match.operation.id).toBe('updateCustomer');
    expect(routeRequest('head', '/api/customers')).toMatchObject({ kind: 'operation', head: true });
  });

  it('answers 404 for paths that only resemble the API: extra or missing segments, prefixes, suffixes', () => {
    for (const path of ['/', '/api', '/api/customers/', `/api/customers/${ID}/`, `/api/customers/${ID}/x`, '/api/customersx', '/v2/api/customers', `x/api/customers/${ID}`, '/api/customers//']) {
      expect(routeRequest('GET', path), path).toEqual({ kind: 'not_found' });
    }
  });

  it('percent-decodes the id, and keeps a segment that is not valid percent-encoding as sent', () => {
    expect(routeRequest('GET', '/api/customers/a%20b')).toMatchObject({ params: { id: 'a b' } });
    expect(routeRequest('GET', '/api/customers/%E0%A4%A')).toMatchObject({ params: { id: '%E0%A4%A' } });
  });

  it('lists every path template with the methods its Allow header names', () => {
    expect(apiPaths()).toEqual([
      { template: '/api/customers', allowed: ['GET', 'HEAD', 'POST'] },
      { template: '/api/customers/{id}', allowed: ['GET', 'HEAD', 'PATCH', 'DELETE'] },
      { template: '/api/webhook_endpoints', allowed: ['GET', 'HEAD', 'POST'] },
      { template: '/api/webhook_endpoints/{id}', allowed: ['GET', 'HEAD', 'PATCH', 'DELETE'] },
      { template: '/api/webhook_endpoints/{id}/rotate_secret', allowed: ['POST'] },
      { template: '/api/webhook_endpoints/{id}/replay', allowed: ['POST'] },
      { template: '/api/events', allowed: ['GET', 'HEAD'] },
      { template: '/api/events/{id}', allowed: ['GET', 'HEAD'] },
      { template: '/api/test_data', allowed: ['DELETE'] },
      { template: '/api/test_clock', allowed: ['GET', 'HEAD', 'POST'] },
    ]);
  });
});
