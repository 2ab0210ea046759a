import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../build-app.js';
import type { DatabaseHandle } from '../db/connect.js';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { call, newCustomer } from '../test/test-server.js';
import { runCli } from './run-cli.js';
import { API_VERSIONS, LATEST_API_VERSION, SCOPES } from '@customers-api/core';

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), env: {} });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

/** A server on the CLI's database, listening on a free port. */
async function listening(handle: DatabaseHandle) {
  const app = await buildApp({ database: handle });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { app, base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

describe.each(DIALECTS)('operator CLI on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('runs the whole key lifecycle: seller, key, use, list, revoke, delete', async () => {
    const db = ['--database', database.url];
    const seller = await cli('sellers', 'create', '--name', 'Acme', '--plan', 'growth', '--customer-limit', '2', '--json', ...db);
    expect(seller.code).toBe(0);
    expect(seller.json()).toMatchObject({ id: expect.any(String), name: 'Acme', plan: 'growth', customer_limit: 2, effective_customer_limit: 2 });
    const sellerId = seller.json().id as string;

    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await cli('keys', 'create', '--seller', sellerId, '--name', 'CI', '--expires-at', expiresAt, '--json', ...db);
    expect(created.code).toBe(0);
    const key = created.json();
    expect(key).toMatchObject({ id: expect.any(String), key: expect.stringMatching(/^sk_live_[A-Za-z0-9]{48}$/), name: 'CI', expires_at: expiresAt });

    const human = await cli('keys', 'create', '--seller', sellerId, '--name', 'Laptop', ...db);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/shown only now/);
    expect(human.stdout).toMatch(/sk_live_[A-Za-z0-9]{48}/);

    // The key works against a server on the same database.
    const handle = await database.open();
    const { app, base } = await listening(handle);
    try {
      expect((await call(base, 'POST', '/api/customers', { key: key.key, body: newCustomer() })).status).toBe(201);
      expect((await call(base, 'POST', '/api/customers', { key: key.key, body: newCustomer() })).status).toBe(201);
      const limited = await call(base, 'POST', '/api/customers', { key: key.key, body: newCustomer() });
      expect(limited.json.message).toBe('Customer limit reached; your subscription plan allows 2 customers');
      await app.drainKeyUsage();

      const listed = await cli('keys', 'list', '--seller', sellerId, '--json', ...db);
      expect(listed.code).toBe(0);
      const keys = listed.json();
      expect(keys).toHaveLength(2);
      const ci = keys.find((k: { id: string }) => k.id === key.id);
      expect(ci).toEqual({
        id: key.id,
        seller_id: sellerId,
        name: 'CI',
        prefix: key.key.slice(0, ci.prefix.length),
        created_at: expect.any(String),
        last_used_at: expect.any(String),
        expires_at: expiresAt,
        revoked_at: null,
        mode: 'live',
        scopes: null,
      });
      expect(listed.stdout).not.toContain(key.key);
      const table = await cli('keys', 'list', '--seller', sellerId, ...db);
      expect(table.stdout).toMatch(/^ID\s+NAME\s+PREFIX\s+CREATED\s+LAST USED\s+EXPIRES\s+REVOKED/);
      expect(table.stdout).not.toContain(key.key);

      expect((await cli('keys', 'revoke', key.id, ...db)).code).toBe(0);
      expect((await call(base, 'GET', `/api/customers/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, { key: key.key })).status).toBe(401);
      const afterRevoke = (await cli('keys', 'list', '--seller', sellerId, '--json', ...db)).json();
      expect(afterRevoke.find((k: { id: string }) => k.id === key.id).revoked_at).toEqual(expect.any(String));

      expect((await cli('keys', 'delete', key.id, ...db)).code).toBe(0);
      expect((await cli('keys', 'list', '--seller', sellerId, '--json', ...db)).json()).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('creates test and restricted keys (--mode, --scopes), lists them with their mode and scopes, audited', async () => {
    const db = ['--database', database.url];
    const sellerId = (await cli('sellers', 'create', '--name', 'Scoped', '--json', ...db)).json().id as string;
    const reporting = await cli('keys', 'create', '--seller', sellerId, '--name', 'Reporting', '--scopes', 'events:read, customers:read', '--mode', 'test', '--json', ...db);
    expect(reporting).toMatchObject({ code: 0, stderr: '' });
    const restricted = reporting.json();
    expect(restricted).toMatchObject({ key: expect.stringMatching(/^rk_test_[A-Za-z0-9]{48}$/), mode: 'test', scopes: ['customers:read', 'events:read'] });
    const human = await cli('keys', 'create', '--seller', sellerId, '--name', 'Live reader', '--scopes', 'customers:read', ...db);
    expect(human.stdout).toMatch(/^Created live restricted API key \(customers:read\) /);
    expect(human.stdout).toMatch(/rk_live_[A-Za-z0-9]{48}/);
    const secret = (await cli('keys', 'create', '--seller', sellerId, '--name', 'Test secret', '--mode', 'test', '--json', ...db)).json();
    expect(secret).toMatchObject({ key: expect.stringMatching(/^sk_test_/), mode: 'test', scopes: null });

    const listed = (await cli('keys', 'list', '--seller', sellerId, '--json', ...db)).json();
    expect(listed.map((k: { name: string; mode: string; scopes: string[] | null }) => [k.name, k.mode, k.scopes])).toEqual([
      ['Reporting', 'test', ['customers:read', 'events:read']],
      ['Live reader', 'live', ['customers:read']],
      ['Test secret', 'test', null],
    ]);
    const table = (await cli('keys', 'list', '--seller', sellerId, ...db)).stdout;
    expect(table).toMatch(/^ID\s+NAME\s+PREFIX\s+CREATED\s+LAST USED\s+EXPIRES\s+REVOKED\s+MODE\s+SCOPES\n/);
    expect(table).toMatch(/Reporting\s+rk_test_\w{4}….*\stest\s+customers:read,events:read\n/);
    expect(table).toMatch(/Test secret\s+sk_test_\w{4}….*\stest\s+all\n/);

    const handle = await database.open();
    const audit = await handle.db.selectFrom('audit_log').select(['action', 'target_id']).where('seller_id', '=', sellerId).where('action', '=', 'api_key.created').orderBy('id').execute();
    await handle.close();
    expect(audit.map((row) => row.target_id)).toEqual(listed.map((k: { id: string }) => k.id));

    const refusals: [string[], string, number][] = [
      [['--scopes', 'customers:read,customers:delete'], `Error: --scopes: unknown scope "customers:delete"; the scopes are ${SCOPES.join(', ')}\n`, 1],
      [['--scopes', ' , '], `Error: --scopes must name at least one scope (${SCOPES.join(', ')}); without it the key is a secret key\n`, 1],
      [['--mode', 'prod'], 'Error: --mode must be live or test, got "prod"\n', 1],
    ];
    for (const [argv, stderr, code] of refusals) {
      expect(await cli('keys', 'create', '--seller', sellerId, '--name', 'Refused', ...argv, ...db), argv.join(' ')).toMatchObject({ code, stderr, stdout: '' });
    }
    expect((await cli('keys', 'list', '--seller', sellerId, '--json', ...db)).json()).toHaveLength(3);
  });

  it('rolls a key: a new key now, the old one until the overlap ends, audited; refuses what it cannot roll', async () => {
    const db = ['--database', database.url];
    const sellerId = (await cli('sellers', 'create', '--name', 'Roller', '--json', ...db)).json().id as string;
    const old = (await cli('keys', 'create', '--seller', sellerId, '--name', 'Backend', '--json', ...db)).json();
    const before = Date.now();
    const rolled = await cli('keys', 'roll', old.id, '--overlap', '1h', '--json', ...db);
    expect(rolled).toMatchObject({ code: 0, stderr: '' });
    const { key, previous } = rolled.json();
    expect(key).toMatchObject({ name: 'Backend', key: expect.stringMatching(/^sk_live_/), expires_at: null, status: 'active' });
    expect(previous).toMatchObject({ id: old.id, name: 'Backend', status: 'active' });
    const overlapEnd = Date.parse(previous.expires_at);
    expect(overlapEnd).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(overlapEnd).toBeLessThanOrEqual(Date.now() + 3_600_000);

    const handle = await database.open();
    const { app, base } = await listening(handle);
    try {
      // Both keys work during the overlap.
      for (const secret of [old.key, key.key]) expect((await call(base, 'GET', '/api/customers', { key: secret })).status).toBe(200);
    } finally {
      await app.close();
    }
    const audit = await handle.db.selectFrom('audit_log').select(['action', 'target_id', 'actor_type']).where('seller_id', '=', sellerId).orderBy('id').execute();
    expect(audit.slice(-2)).toEqual([
      { action: 'api_key.created', target_id: key.id, actor_type: 'cli' },
      { action: 'api_key.rolled', target_id: old.id, actor_type: 'cli' },
    ]);

    const human = await cli('keys', 'roll', key.id, '--overlap', '7d', ...db);
    expect(human.stdout).toMatch(new RegExp(`^Rolled API key ${key.id} \\("Backend"\\): it keeps working until \\d{4}-.*Z\\.\\nNew API key .*shown only now.*\\n\\n  sk_live_`, 's'));
    expect((await cli('keys', 'revoke', old.id, ...db)).code).toBe(0);
    const refusals: [string[], string, number][] = [
      [[old.id, '--overlap', '1h'], `Error: API key "${old.id}" is revoked or expired; only an active key can be rolled\n`, 1],
      [['6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90', '--overlap', '1h'], 'Error: Unknown API key "6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90"\n', 1],
      [[key.id, '--overlap', '2h'], 'Error: --overlap must be one of 1h, 24h, 7d, got "2h"\n', 1],
      [[key.id], 'Error: --overlap is required (1h, 24h, 7d). Usage: keys roll KEY_ID --overlap 1h|24h|7d [--json] [--database URL]\n', 2],
    ];
    const keysBefore = (await cli('keys', 'list', '--seller', sellerId, '--json', ...db)).json();
    for (const [argv, stderr, code] of refusals) {
      expect(await cli('keys', 'roll', ...argv, ...db), argv.join(' ')).toMatchObject({ code, stderr, stdout: '' });
    }
    expect((await cli('keys', 'list', '--seller', sellerId, '--json', ...db)).json()).toEqual(keysBefore);
  });

  it("sets a seller's own rate limit at creation and changes it with sellers update", async () => {
    const db = ['--database', database.url];
    const created = await cli('sellers', 'create', '--name', 'R', '--rate-limit', '5', '--json', ...db);
    expect(created.json()).toMatchObject({ rate_limit: 5 });
    const sellerId = created.json().id as string;
    const human = await cli('sellers', 'update', sellerId, '--rate-limit', '0', ...db);
    expect(human.stdout).toBe(`Updated seller ${sellerId} ("R"): no rate limit\n`);
    const cleared = await cli('sellers', 'update', sellerId, '--rate-limit', 'default', '--json', ...db);
    expect(cleared.json()).toMatchObject({ id: sellerId, rate_limit: null });
    const raised = await cli('sellers', 'update', sellerId, '--rate-limit', '250', '--json', ...db);
    expect(raised.json()).toMatchObject({ rate_limit: 250 });
  });

  it('sets the endpoint cap, the API version and several settings at once', async () => {
    const db = ['--database', database.url];
    const created = await cli('sellers', 'create', '--name', 'W', '--webhook-endpoint-limit', '3', '--api-version', LATEST_API_VERSION, '--json', ...db);
    expect(created.json()).toMatchObject({ webhook_endpoint_limit: 3, api_version: LATEST_API_VERSION, rate_limit: null });
    const sellerId = created.json().id as string;
    const both = await cli('sellers', 'update', sellerId, '--rate-limit', '7', '--webhook-endpoint-limit', 'default', '--json', ...db);
    expect(both.json()).toMatchObject({ id: sellerId, rate_limit: 7, webhook_endpoint_limit: null, api_version: LATEST_API_VERSION });
    const bad = await cli('sellers', 'create', '--name', 'X', '--webhook-endpoint-limit', '1.5', ...db);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--webhook-endpoint-limit must be a whole number');
  });

  it('pins a seller to the latest API version at creation and to a supported one with sellers update', async () => {
    const db = ['--database', database.url];
    const created = await cli('sellers', 'create', '--name', 'V', '--json', ...db);
    expect(created.json()).toMatchObject({ api_version: LATEST_API_VERSION });
    const sellerId = created.json().id as string;
    const human = await cli('sellers', 'update', sellerId, '--api-version', LATEST_API_VERSION, ...db);
    expect(human.stdout).toBe(`Updated seller ${sellerId} ("V"): API version ${LATEST_API_VERSION}\n`);
    const json = await cli('sellers', 'update', sellerId, '--api-version', LATEST_API_VERSION, '--json', ...db);
    expect(json.json()).toMatchObject({ id: sellerId, api_version: LATEST_API_VERSION });
    const unknown = await cli('sellers', 'update', sellerId, '--api-version', '2020-01-01', ...db);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain(`--api-version must be one of: ${API_VERSIONS.map((entry) => entry.version).join(', ')}, got "2020-01-01"`);
  });

  it('fails with a clear message and a non-zero exit code', async () => {
    const db = ['--database', database.url];
    const sellerId = (await cli('sellers', 'create', '--name', 'B', '--json', ...db)).json().id;
    const cases: [string[], RegExp][] = [
      [['keys', 'create', '--seller', '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90', '--name', 'x'], /Unknown seller/],
      [['keys', 'create', '--seller', 'not-a-uuid', '--name', 'x'], /Unknown seller/],
      [['keys', 'create', '--seller', sellerId, '--name', 'x', '--expires-at', 'tomorrow'], /ISO 8601/],
      [['keys', 'create', '--seller', sellerId, '--name', 'x', '--expires-at', '2001-01-01T00:00:00Z'], /in the future/],
      [['keys', 'create', '--seller', sellerId, '--name', 'x', '--expires-at', '2030-02-30'], /ISO 8601/],
      [['keys', 'create', '--seller', sellerId, '--name', 'invoice\u202etxt.exe'], /--name must not contain control or bidirectional/],
      [['keys', 'create', '--seller', sellerId, '--name', 'x'.repeat(101)], /--name must be at most 100 characters/],
      [['keys', 'create', '--seller', sellerId], /--name is required/],
      [['keys', 'list', '--seller', '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90'], /Unknown seller/],
      [['keys', 'revoke', '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90'], /Unknown API key/],
      [['keys', 'delete', 'nope'], /Unknown API key/],
      [['sellers', 'create', '--name', 'x', '--plan', 'platinum'], /Unknown plan "platinum"; plans: starter, growth, scale/],
      [['sellers', 'create', '--name', 'x', '--customer-limit', '-1'], /--customer-limit/],
      [['sellers', 'create', '--name', 'x', '--bogus'], /bogus/],
      [['sellers', 'create', '--name', 'x', '--rate-limit', '1.5'], /--rate-limit must be a whole number/],
      [['sellers', 'update', sellerId, '--rate-limit=-1'], /--rate-limit must be a whole number/],
      [['sellers', 'update', sellerId], /Usage: sellers update SELLER_ID \[--rate-limit N\|default\] \[--webhook-endpoint-limit/],
      [['sellers', 'update', '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90', '--rate-limit', '5'], /Unknown seller/],
      [['frobnicate'], /Unknown command/],
    ];
    for (const [argv, message] of cases) {
      const result = await cli(...argv, ...db);
      expect(result.code, argv.join(' ')).not.toBe(0);
      expect(result.stderr, argv.join(' ')).toMatch(message);
      expect(result.stdout).toBe('');
    }
    const badUrl = await cli('keys', 'list', '--seller', sellerId, '--database', 'mysql://x');
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toMatch(/Unsupported database URL/);
  });
});
