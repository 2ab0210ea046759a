import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { customerEvent, generateWebhookSecret, newEventId, webhookHeaders } from '@customers-api/core';
import { CustomersClient } from '@customers-api/sdk';
import { createApiKey, createSeller, startServer, type RunningServer } from '@customers-api/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRuntimes, smokeScripts, webhookScripts, type Runtime } from './runtimes.js';

const run = promisify(execFile);

// The built SDK, ESM and CJS, on every runtime we support, against the real reference server on SQLite.
describe('the SDK on every runtime', () => {
  const dir = mkdtempSync(join(tmpdir(), 'runtime-matrix-'));
  let server: RunningServer;
  let apiKey: string;
  let runtimes: Runtime[] = [];

  beforeAll(async () => {
    runtimes = await resolveRuntimes();
    server = await startServer(
      { port: 0, host: '127.0.0.1', databaseUrl: `sqlite:${join(dir, 'customers.db')}`, logLevel: 'silent' },
      { print: () => {} },
    );
    const seller = await createSeller(server.database, { name: 'Runtime matrix', plan: 'growth', customerLimit: null });
    apiKey = (await createApiKey(server.database, { sellerId: seller.id, name: 'matrix' })).key;
  }, 240_000);

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const names = ['node 20', 'node 22', 'node 24', 'bun', 'deno'];
  const cases = names.flatMap((name, index) => smokeScripts.map((script) => [name, script.format, index, script] as const));

  it.each(cases)('%s runs the %s build: create, get, update, delete, typed 404', async (_, format, index, script) => {
    const runtime = runtimes[index]!;
    const { stdout } = await run(runtime.command, [...runtime.args, script.path], {
      env: { ...process.env, BASE_URL: server.url, API_KEY: apiKey, DENO_DIR: join(dir, 'deno'), NO_COLOR: '1' },
      timeout: 45_000,
    });
    expect(stdout.trim()).toBe(`smoke ${format} ok: create/get/update/delete/404 against ${server.url}`);
  });

  // A customer.updated delivery as the server signs it: core's event and core's signatures, during a rotation
  // (two signatures), for a receiver that still holds the previous secret (the second one).
  const webhookCases = names.flatMap((name, index) => webhookScripts.map((script) => [name, script.format, index, script] as const));

  it.each(webhookCases)('%s runs the %s build: verifies a signed delivery, refuses a tampered one', async (_, format, index, script) => {
    const runtime = runtimes[index]!;
    const client = new CustomersClient({ baseUrl: server.url, apiKey, maxRetries: 0 });
    const email = `webhooks+${format}${index}${Date.now()}@example.com`;
    const before = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email });
    const after = await client.customers.update(before.id, { status: 'suspended' });
    const event = customerEvent({
      eventId: newEventId(),
      type: 'customer.updated',
      sellerId: after.seller_id,
      mode: 'live',
      customerId: after.id,
      sequence: 2,
      occurredAt: after.updated_at,
      customer: after,
      previous: before,
    });
    const body = JSON.stringify(event);
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = await webhookHeaders([current, previous], { id: event.id, timestamp: Math.floor(Date.now() / 1000), body });
    const { stdout } = await run(runtime.command, [...runtime.args, script.path], {
      env: { ...process.env, WEBHOOK_FIXTURE: JSON.stringify({ body, headers, secret: previous }), DENO_DIR: join(dir, 'deno'), NO_COLOR: '1' },
      timeout: 45_000,
    });
    expect(stdout.trim()).toBe(`webhooks ${format} ok: verified customer.updated three ways, refused a tampered body and an old timestamp`);
  });

  it('the versions are the ones promised', async () => {
    const versions = await Promise.all(
      runtimes.map(async (runtime) => (await run(runtime.command, ['--version'])).stdout.trim()),
    );
    expect(versions[0]).toMatch(/^v20\./);
    expect(versions[1]).toMatch(/^v22\./);
    expect(versions[2]).toMatch(/^v24\./);
    expect(versions[3]).toMatch(/^1\./);
    expect(versions[4]).toMatch(/^deno 2\./);
  });
});
