// `webhooks listen` as a real process next to a real server that delivers: the printed secret verifies what the
// local receiver gets, each attempt is printed, and Ctrl-C (SIGINT) or SIGTERM removes the temporary endpoint.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CustomersClient, verifyWebhook } from '@customers-api/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../db/api-keys.js';
import { createSeller } from '../db/sellers.js';
import { startServer, type RunningServer } from '../server/start-server.js';
import { CLI } from '../test/serve-process.js';
import { runCli } from './run-cli.js';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';
import { listEndpoints } from '../webhooks/endpoints.js';

/** `cli webhooks listen` as a child process; `lines()` resolves once stdout holds `count` complete lines. */
function listen(args: string[]) {
  const child = spawn(process.execPath, [CLI, 'webhooks', 'listen', ...args], {
    env: { ...process.env, DATABASE_URL: '', WEBHOOK_SECRET_KEY: '', WEBHOOK_SECRET_KEY_FILE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const wake of [...waiters]) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    stderr: () => stderr,
    lines: (count: number) =>
      new Promise<string[]>((resolve, reject) => {
        const check = () => {
          const complete = stdout.split('\n').slice(0, -1);
          if (complete.length < count) return;
          waiters.delete(check);
          resolve(complete);
        };
        waiters.add(check);
        exited.then((code) => reject(new Error(`listen exited with ${code}: ${stdout}${stderr}`)));
        check();
      }),
  };
}

describe.each(DIALECTS)('cli webhooks listen on %s', (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let receiver: WebhookReceiver;
  let keyDir: string;
  let keyFile: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    keyDir = mkdtempSync(join(tmpdir(), 'webhook-key-'));
    keyFile = join(keyDir, 'webhook-secret.key');
    // The server as `serve --allow-private-webhooks --secret-key-file FILE` starts it (the key file is created).
    server = await startServer(
      { port: 0, host: '127.0.0.1', databaseUrl: database.url, logLevel: 'silent', allowPrivateWebhooks: true, webhookSecretKey: { file: keyFile } },
      { print: () => {} },
    );
    receiver = await startWebhookReceiver();
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
    await database?.dispose();
    rmSync(keyDir, { recursive: true, force: true });
  });

  it('forwards signed events to the local URL with the printed secret, prints each attempt, and cleans up on Ctrl-C', async () => {
    const seller = await createSeller(server.database, { name: 'Listener', plan: 'starter' });
    const { key } = await createApiKey(server.database, { sellerId: seller.id, name: 'dev' });
    const listener = listen(['--seller', seller.id, '--forward-to', receiver.url, '--json', '--database', database.url, '--secret-key-file', keyFile]);
    const [ready] = await listener.lines(1);
    const registered = JSON.parse(ready!) as { id: string; secret: string; url: string; events: string[] };
    expect(registered).toEqual({
      id: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
      url: receiver.url,
      events: ['customer.created', 'customer.updated', 'customer.deleted'],
    });
    expect((await listEndpoints(server.database, seller.id)).map((e) => e.id)).toEqual([registered.id]);

    const client = new CustomersClient({ apiKey: key, baseUrl: server.url, maxRetries: 0 });
    const ada = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    const mine = (all: WebhookReceiver['received']) => all.filter((r) => r.event?.data?.customer?.seller_id === seller.id);
    const [request] = mine(await receiver.waitUntil((all) => mine(all).length >= 1));
    const event = await verifyWebhook(request!.body, request!.headers, registered.secret);
    expect(event).toMatchObject({ type: 'customer.created', data: { customer: ada } });

    // The attempt shows up in the listener's output (one JSON line per attempt with --json).
    const [, attempt] = await listener.lines(2);
    expect(JSON.parse(attempt!)).toMatchObject({ event_id: event.id, event_type: 'customer.created', status: 'delivered', last_status_code: 204 });

    listener.child.kill('SIGINT');
    expect(await listener.exited).toBe(0);
    expect(listener.stderr()).toContain(`Removed the temporary endpoint ${registered.id}.`);
    expect(await listEndpoints(server.database, seller.id)).toEqual([]);
    expect(listener.stderr()).not.toContain(registered.secret);
  }, 120_000);

  it('removes the endpoint on SIGTERM too, and refuses a bad URL or seller without registering anything', async () => {
    const seller = await createSeller(server.database, { name: 'Refused', plan: 'starter' });
    const common = ['--database', database.url, '--secret-key-file', keyFile];
    const listener = listen(['--seller', seller.id, '--forward-to', 'http://127.0.0.1:9/x', ...common]);
    const lines = await listener.lines(4);
    expect(lines.join('\n')).toMatch(/Verify the requests with this signing secret:\n\n {2}whsec_\S+\n/);
    listener.child.kill('SIGTERM');
    expect(await listener.exited).toBe(0);
    expect(await listEndpoints(server.database, seller.id)).toEqual([]);

    // Refusals need no process: the CLI in-process, each before anything is registered.
    const cli = async (...argv: string[]) => {
      let stderr = '';
      const code = await runCli(['webhooks', 'listen', ...argv, ...common], { out: () => {}, err: (t) => (stderr += t), env: {} });
      return { code, stderr };
    };
    expect(await cli('--seller', seller.id, '--forward-to', 'ftp://127.0.0.1/x')).toEqual({
      code: 1,
      stderr: 'Error: --forward-to: url must be an http or https URL\n',
    });
    const badEvents = await cli('--seller', seller.id, '--forward-to', receiver.url, '--events', 'customer.merged');
    expect(badEvents.code).toBe(1);
    expect(badEvents.stderr).toMatch(/^Error: --events: events must be one or more of/);
    expect(await cli('--seller', '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', '--forward-to', receiver.url)).toEqual({
      code: 1,
      stderr: 'Error: Unknown seller "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"\n',
    });
    expect((await cli('--forward-to', receiver.url)).code).toBe(2);
    expect(await listEndpoints(server.database, seller.id)).toEqual([]);
  }, 120_000);
});
