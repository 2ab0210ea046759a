import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { OPERATIONS } from '../http/operations.js';
import { SCOPES, assertScope, missingScope, parseScopeList } from './scopes.js';

/** The repository's openapi.yaml: the nearest one above this file (Stryker runs the tests from a copy of core, deeper down). */
function readSpec(): string {
  for (let dir = new URL('./', import.meta.url); dir.pathname !== '/'; dir = new URL('../', dir)) {
    const candidate = new URL('openapi.yaml', dir);
    if (existsSync(candidate)) return readFileSync(candidate, 'utf8');
  }
  throw new Error('openapi.yaml not found above packages/core/src/auth');
}

const createCustomer = OPERATIONS.find((operation) => operation.id === 'createCustomer')!;

describe('scopes', () => {
  it('are generated from openapi.yaml: the five of the issue and the test clock pair, by resource, read before write', () => {
    expect(SCOPES).toEqual([
      'customers:read',
      'customers:write',
      'webhook_endpoints:read',
      'webhook_endpoints:write',
      'events:read',
      'test_clock:read',
      'test_clock:write',
    ]);
    expect(Object.fromEntries(OPERATIONS.map((operation) => [operation.id, operation.scopes]))).toMatchObject({
      listCustomers: ['customers:read'],
      createCustomer: ['customers:write'],
      getEvent: ['events:read'],
      replayWebhookEvents: ['webhook_endpoints:write'],
      getTestClock: ['test_clock:read'],
      advanceTestClock: ['test_clock:write'],
    });
  });

  it('a secret key (no list) holds every scope; a restricted key only its own', () => {
    expect(missingScope(createCustomer, null)).toBeUndefined();
    expect(missingScope(createCustomer, undefined)).toBeUndefined();
    expect(missingScope(createCustomer, ['customers:write'])).toBeUndefined();
    expect(missingScope(createCustomer, ['customers:read'])).toBe('customers:write');
    expect(missingScope(createCustomer, [])).toBe('customers:write');
  });

  it('refuses with 403 naming the missing scope and the operation', () => {
    let thrown: unknown;
    try {
      assertScope(createCustomer, ['customers:read', 'events:read']);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).toBody()).toEqual({
      error: 'Forbidden',
      message:
        'This restricted API key lacks the customers:write scope, which createCustomer (POST /api/customers) needs; create a key granted that scope, or use a secret key',
    });
  });

  it('parses a list of scope names, refusing an unknown one by name', () => {
    expect(parseScopeList('events:read, customers:read,events:read')).toEqual({ ok: true, scopes: ['customers:read', 'events:read'] });
    expect(parseScopeList([])).toEqual({ ok: true, scopes: [] });
    expect(parseScopeList([' events:read ', 'customers:write'])).toEqual({ ok: true, scopes: ['customers:write', 'events:read'] });
    // Empty entries (a trailing comma, a blank list) are no scope, not an unknown one.
    expect(parseScopeList('customers:read,, ,')).toEqual({ ok: true, scopes: ['customers:read'] });
    expect(parseScopeList(['', ' '])).toEqual({ ok: true, scopes: [] });
    expect(parseScopeList('')).toEqual({ ok: true, scopes: [] });
    expect(parseScopeList('customers:read,customers:delete')).toEqual({
      ok: false,
      message: `unknown scope "customers:delete"; the scopes are ${SCOPES.join(', ')}`,
    });
  });

  it('openapi.yaml documents the table the generator derives (no drift)', () => {
    const spec = readSpec();
    for (const operation of OPERATIONS) {
      expect(spec).toContain(`| \`${operation.id}\` | \`${operation.method} ${operation.path}\` | ${operation.scopes.map((s) => `\`${s}\``).join(', ')} |`);
    }
  });

  it('the generator refuses an operation without x-scopes, naming it', () => {
    const spec = readSpec();
    const withoutScope = spec.replace('      x-scopes: [events:read]\n', '');
    expect(withoutScope).not.toBe(spec);
    const file = join(mkdtempSync(join(tmpdir(), 'scopes-')), 'openapi.yaml');
    writeFileSync(file, withoutScope);
    const script = new URL('../../scripts/generate.mjs', import.meta.url);
    expect(() => execFileSync(process.execPath, [script.pathname, '--check', '--spec', file], { stdio: 'pipe' })).toThrow(
      /has no x-scopes; every operation names the scope a restricted key needs for it/,
    );
  }, 60_000);
});
