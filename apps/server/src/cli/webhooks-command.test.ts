import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { LATEST_API_VERSION } from '@customers-api/core';
import { sql } from 'kysely';
import { createSeller } from '../db/sellers.js';
import { createRequestLimits } from '../rate-limit/request-limits.js';
import { startRedisServer } from '../test/redis-server.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { runCli } from './run-cli.js';

async function cli(env: NodeJS.ProcessEnv, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), env });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

describe('webhooks CLI (SQLite)', () => {
  let database: TestDatabase;
  let sellerId: string;
  let db: string[];
  const env = { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') };
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    const handle = await database.open();
    sellerId = (await createSeller(handle, { name: 'Hooks', plan: 'starter' })).id;
    db = ['--database', database.url];
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('creates, lists, rotates, shows deliveries of and deletes an endpoint', async () => {
    const created = await cli(env, 'webhooks', 'create', '--seller', sellerId, '--url', 'http://127.0.0.1:8080/hooks', '--json', ...db);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const endpoint = created.json();
    expect(endpoint).toEqual({
      id: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
      url: 'http://127.0.0.1:8080/hooks',
      events: ['customer.created', 'customer.updated', 'customer.deleted'],
      api_version: LATEST_API_VERSION,
    });
    const some = await cli(env, 'webhooks', 'create', '--seller', sellerId, '--url', 'https://crm.example.com/', '--events', 'customer.deleted,customer.created', ...db);
    expect(some.code).toBe(0);
    expect(some.stdout).toMatch(/for customer\.created, customer\.deleted at https:\/\/crm\.example\.com\/, in API version \d{4}-\d{2}-\d{2}\.\n.*shown only now.*\n\n {2}whsec_/s);

    const listed = await cli(env, 'webhooks', 'list', '--seller', sellerId, '--json', ...db);
    expect(listed.json()).toHaveLength(2);
    expect(listed.json()[0]).toMatchObject({ id: endpoint.id, failing: false, failing_since: null, api_version: LATEST_API_VERSION });
    expect(listed.stdout).not.toContain('whsec_');
    const table = await cli(env, 'webhooks', 'list', '--seller', sellerId, ...db);
    expect(table.stdout).toMatch(/^ID +URL +EVENTS +API VERSION +CREATED +STATE\n/);
    expect(table.stdout).toContain(' ok\n');

    const rotated = await cli(env, 'webhooks', 'rotate-secret', endpoint.id, '--json', ...db);
    expect(rotated.json()).toEqual({ id: endpoint.id, secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(String) });
    expect(rotated.json().secret).not.toBe(endpoint.secret);

    const deliveries = await cli(env, 'webhooks', 'deliveries', endpoint.id, '--json', ...db);
    expect(deliveries.json()).toEqual([]);
    expect((await cli(env, 'webhooks', 'deliveries', endpoint.id, ...db)).stdout).toBe('No deliveries.\n');

    expect((await cli(env, 'webhooks', 'delete', endpoint.id, ...db)).stdout).toBe(`Deleted webhook endpoint ${endpoint.id}\n`);
    const gone = await cli(env, 'webhooks', 'delete', endpoint.id, ...db);
    expect(gone).toMatchObject({ code: 1, stderr: `Error: Unknown webhook endpoint "${endpoint.id}"\n` });
  });

  it('refuses an endpoint beyond the seller’s cap naming it, which sellers update raises; lists and enables a disabled endpoint', async () => {
    const handle = await database.open();
    const capped = (await createSeller(handle, { name: 'Capped', plan: 'starter' })).id;
    const update = await cli(env, 'sellers', 'update', capped, '--webhook-endpoint-limit', '1', ...db);
    expect(update).toMatchObject({ code: 0, stdout: `Updated seller ${capped} ("Capped"): up to 1 webhook endpoints\n` });
    const create = (path = '') => cli(env, 'webhooks', 'create', '--seller', capped, '--url', `https://cap.example.com/${path}`, '--json', ...db);
    const endpoint = (await create()).json();
    expect(await create('second')).toMatchObject({
      code: 1,
      stderr: 'Error: --seller: Webhook endpoint limit reached: this account may have at most 1 webhook endpoint; delete one first, or ask the operator to raise the limit\n',
    });
    expect(await cli(env, 'sellers', 'update', capped, '--webhook-endpoint-limit', 'lots', ...db)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^Error: --webhook-endpoint-limit must be a whole number/),
    });
    expect((await cli(env, 'sellers', 'update', capped, '--webhook-endpoint-limit', 'default', '--json', ...db)).json()).toMatchObject({
      webhook_endpoint_limit: null,
    });
    expect((await create('second')).code).toBe(0);

    await handle.db.updateTable('webhook_endpoints').set({ disabled_at: '2026-11-20T08:00:00.000Z' }).where('id', '=', endpoint.id).execute();
    const table = await cli(env, 'webhooks', 'list', '--seller', capped, ...db);
    expect(table.stdout).toContain(`disabled since 2026-11-20T08:00:00.000Z (webhooks enable ${endpoint.id})`);
    expect((await cli(env, 'webhooks', 'list', '--seller', capped, '--json', ...db)).json()[0]).toMatchObject({ disabled: true });
    const enabled = await cli(env, 'webhooks', 'enable', endpoint.id, ...db);
    expect(enabled).toMatchObject({ code: 0, stdout: `Enabled webhook endpoint ${endpoint.id}: new changes are sent to it again\n` });
    expect((await cli(env, 'webhooks', 'enable', endpoint.id, '--json', ...db)).json()).toMatchObject({ id: endpoint.id, disabled: false, disabled_at: null });
    expect(await cli(env, 'webhooks', 'enable', crypto.randomUUID(), ...db)).toMatchObject({ code: 1, stderr: expect.stringMatching(/^Error: Unknown webhook endpoint/) });
  });

  it("takes endpoint changes from the seller's rate budget shared through Redis with the servers' API", async () => {
    const redis = await startRedisServer();
    const handle = await database.open();
    const client = new Redis(redis.url);
    try {
      // The seller's own limit of 3 per second; the servers' default (RATE_LIMIT) names the same count.
      const seller = await createSeller(handle, { name: 'Budget', plan: 'starter', rateLimit: 3 });
      const shared = { ...env, REDIS_URL: redis.url, RATE_LIMIT: '100' };
      const created = await cli(shared, 'webhooks', 'create', '--seller', seller.id, '--url', 'https://budget.example.com/', '--json', ...db);
      expect(created.code).toBe(0);
      const { id } = created.json();
      // A server process's API takes from the same count (its limiter over the same Redis).
      const api = createRequestLimits({ perSecond: 100, redis: client })!;
      expect((await api.sellers.consume(seller.id, 3)).allowed).toBe(true);
      expect((await cli(shared, 'webhooks', 'rotate-secret', id, '--json', ...db)).code).toBe(0);
      const before = await handle.db.selectFrom('webhook_endpoints').selectAll().where('seller_id', '=', seller.id).execute();
      for (const args of [['enable', id], ['delete', id], ['rotate-secret', id], ['create', '--seller', seller.id, '--url', 'https://budget.example.com/2']]) {
        expect(await cli(shared, 'webhooks', ...args, ...db)).toMatchObject({
          code: 1,
          stderr: expect.stringMatching(/^Error: --seller: the seller's rate limit is spent; too many requests; retry after \d+ seconds?\n$/),
        });
      }
      expect(await handle.db.selectFrom('webhook_endpoints').selectAll().where('seller_id', '=', seller.id).execute()).toEqual(before);
      // Reading is free; without Redis each process counts alone and the CLI has nothing to count against.
      expect((await cli(shared, 'webhooks', 'deliveries', id, ...db)).code).toBe(0);
      expect((await cli(env, 'webhooks', 'enable', id, ...db)).code).toBe(0);
    } finally {
      client.disconnect();
      await redis.stop();
    }
  });

  it('stores and prints the normalized URL, refuses control characters, and escapes non-printables in listings', async () => {
    const created = await cli(env, 'webhooks', 'create', '--seller', sellerId, '--url', 'HTTPS://Listing.Example:443/a/../h', '--json', ...db);
    expect(created.json().url).toBe('https://listing.example/h');
    const refused = await cli(env, 'webhooks', 'create', '--seller', sellerId, '--url', 'https://x.example/\u001b[2J', ...db);
    expect(refused).toMatchObject({ code: 1, stderr: 'Error: --url must not contain control characters or bidirectional formatting characters\n' });
    // A row stored before the rule (or by hand) still shows as what it holds, not as what a terminal makes of it.
    const handle = await database.open();
    await handle.db
      .updateTable('webhook_endpoints')
      .set({ url: 'https://listing.example/\u001b]0;pwned\u0007\u202eexe.txt\nfake row' })
      .where('id', '=', created.json().id)
      .execute();
    const table = await cli(env, 'webhooks', 'list', '--seller', sellerId, ...db);
    expect(table.stdout).toContain('https://listing.example/\\u001b]0;pwned\\u0007\\u202eexe.txt\\u000afake row');
    expect(table.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect((await cli(env, 'webhooks', 'delete', created.json().id, ...db)).code).toBe(0);
  });

  it("pins an endpoint to its seller's API version unless --api-version names one", async () => {
    const handle = await database.open();
    const pinned = (await createSeller(handle, { name: 'Pinned', plan: 'starter' })).id;
    // A seller pinned to a version this build no longer lists (as after a sunset): the endpoint inherits it.
    await sql`update sellers set api_version = '2026-06-01' where id = ${pinned}`.execute(handle.db);
    const inherited = await cli(env, 'webhooks', 'create', '--seller', pinned, '--url', 'https://a.example/', '--json', ...db);
    expect(inherited.json()).toMatchObject({ api_version: '2026-06-01' });
    const chosen = await cli(env, 'webhooks', 'create', '--seller', pinned, '--url', 'https://b.example/', '--api-version', LATEST_API_VERSION, '--json', ...db);
    expect(chosen.json()).toMatchObject({ api_version: LATEST_API_VERSION });
    const listed = await cli(env, 'webhooks', 'list', '--seller', pinned, '--json', ...db);
    expect(listed.json().map((endpoint: { api_version: string }) => endpoint.api_version)).toEqual(['2026-06-01', LATEST_API_VERSION]);
    const table = await cli(env, 'webhooks', 'list', '--seller', pinned, ...db);
    expect(table.stdout).toMatch(/ 2026-06-01 /);
  });

  it('names the bad option in every refusal', async () => {
    const create = (...args: string[]) => cli(env, 'webhooks', 'create', ...args, ...db);
    expect(await create('--url', 'https://x.example/')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^Error: --seller is required/) });
    expect(await create('--seller', sellerId)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^Error: --url is required/) });
    expect(await create('--seller', crypto.randomUUID(), '--url', 'https://x.example/')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^Error: --seller: unknown seller/),
    });
    expect(await create('--seller', sellerId, '--url', 'ftp://x.example/')).toMatchObject({
      code: 1,
      stderr: 'Error: --url must be an http or https URL\n',
    });
    expect(await create('--seller', sellerId, '--url', 'https://x.example/', '--events', 'customer.created,customer.moved')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^Error: --events must be one or more of customer.created, customer.updated, customer.deleted; "customer.moved"/),
    });
    // A URL the seller already has (as stored, normalized): the rule the dashboard's 409 follows, nothing stored.
    expect((await create('--seller', sellerId, '--url', 'https://twice.example/hooks')).code).toBe(0);
    expect(await create('--seller', sellerId, '--url', 'https://TWICE.example:443/hooks')).toMatchObject({
      code: 1,
      stderr: 'Error: --url https://twice.example/hooks already has a webhook endpoint in this account; edit that one instead\n',
    });
    const listed = (await cli(env, 'webhooks', 'list', '--seller', sellerId, '--json', ...db)).json() as { url: string }[];
    expect(listed.filter((endpoint) => endpoint.url === 'https://twice.example/hooks')).toHaveLength(1);
    expect(await create('--seller', sellerId, '--url', 'https://x.example/', '--api-version', '2020-13-01')).toMatchObject({
      code: 1,
      stderr: `Error: --api-version must be one of: ${LATEST_API_VERSION}, got "2020-13-01"\n`,
    });
    expect(await cli(env, 'webhooks', 'deliveries', '--json', ...db)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^Error: Usage: webhooks deliveries/) });
    expect(await cli(env, 'webhooks', 'deliveries', 'x', '--limit', '0', ...db)).toMatchObject({ code: 1, stderr: expect.stringMatching(/^Error: --limit must be/) });
    const unknown = await cli(env, 'webhooks', 'rename', ...db);
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringMatching(/^Error: Unknown webhooks command "rename"/) });
    // Every webhooks command is offered, the long-running `listen` included.
    for (const command of ['create', 'list', 'delete', 'deliveries', 'rotate-secret', 'enable', 'listen']) {
      expect(unknown.stderr).toContain(`webhooks ${command} `);
    }
    expect(await cli({ WEBHOOK_SECRET_KEY: 'short' }, 'webhooks', 'create', '--seller', sellerId, '--url', 'https://x.example/', ...db)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^Error: The webhook secret key in WEBHOOK_SECRET_KEY must be 32 bytes/),
    });
  });

  it('without a key in the environment, creates one in the database folder, readable by its owner only, and keeps using it', async () => {
    const first = await cli({}, 'webhooks', 'create', '--seller', sellerId, '--url', 'https://a.example/', '--json', ...db);
    expect(first.code).toBe(0);
    const keyFile = join(dirname(database.url.slice('sqlite:'.length)), 'webhook-secret.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const rotated = await cli({}, 'webhooks', 'rotate-secret', first.json().id, '--json', ...db);
    expect(rotated.code).toBe(0);
    // Another key cannot open that endpoint's secret, and says which key to use.
    const wrong = await cli(env, 'webhooks', 'rotate-secret', first.json().id, ...db);
    expect(wrong).toMatchObject({ code: 1, stderr: expect.stringMatching(/sealed with key [0-9a-f]{16}, but this process has key [0-9a-f]{16}/) });
  });
});
