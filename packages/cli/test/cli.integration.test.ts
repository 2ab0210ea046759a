import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CustomersClient, verifyWebhook } from '@customers-api/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from './receiver';
import { type ApiTarget, startMock, startServer, stopProcess, waitForLine } from './targets';

// The built bin as a user runs it, against the reference server (SQLite) and the HTTP mock.
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** Runs the bin to its end (asynchronously: the server under test answers from this process's event loop). */
function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Waits until `done()` holds (every 100 ms, 30 s at most: deliveries on a loaded machine). */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('without a key', () => {
  it('--help and --version work, and any other command says the key is missing (exit 2)', async () => {
    const help = await run(['--help'], {});
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('listen --forward-to URL');
    expect(await run(['--version'], {})).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
    const trigger = await run(['trigger', 'customer.created'], {});
    expect(trigger.code).toBe(2);
    expect(trigger.stderr).toContain('CUSTOMERS_API_KEY is not set');
  });
});

describe.each([
  ['server (SQLite)', startServer],
  ['HTTP mock', startMock],
] as const)('customers against the %s', (_name, start) => {
  let target: ApiTarget;
  let client: CustomersClient;
  let env: Record<string, string>;
  let endpointId: string;
  let sink: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    target = await start();
    sink = await startReceiver();
    client = new CustomersClient({ apiKey: target.key, baseUrl: target.baseUrl, maxRetries: 0 });
    env = { CUSTOMERS_API_KEY: target.key, CUSTOMERS_API_BASE_URL: target.baseUrl };
    // Events are recorded while an endpoint is subscribed: the seller's app registers one, as in production.
    endpointId = (await client.webhookEndpoints.create({ url: target.endpointUrl(sink.url) })).id;
  });
  afterAll(async () => {
    await sink?.close();
    await target?.close();
  });

  it('a trigger gives exactly one forwarded event at the local receiver, signed with the printed secret', async () => {
    const receiver = await startReceiver();
    const listen = spawn(process.execPath, [bin, 'listen', '--forward-to', receiver.url, '--interval', '200'], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    listen.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      const secret = await waitForLine(listen, /signing secret is (whsec_[A-Za-z0-9+/=]+)/);
      const trigger = await run(['trigger', 'customer.created', '--set', 'first_name=Grace', '--set', 'address_data.city=London'], env);
      expect(trigger, trigger.stderr).toMatchObject({ code: 0 });
      await receiver.waitFor(1);
      // Several more polls (every 200 ms) find nothing new: the event went out once.
      const polls = stdout.length;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(receiver.received).toHaveLength(1);
      const [request] = receiver.received;
      const event = await verifyWebhook(request!.body, request!.headers as Record<string, string>, secret);
      expect(event.type).toBe('customer.created');
      expect(event.type === 'customer.created' && event.data.customer.first_name).toBe('Grace');
      expect(event.type === 'customer.created' && event.data.customer.address_data?.city).toBe('London');
      const newest = await client.events.list({ limit: 1 });
      expect(event.id).toBe(newest.data[0]!.id);
      expect(stdout.slice(polls).split('\n').filter((line) => line.includes('-->'))).toEqual([]);
      expect(stdout).toContain(`--> customer.created [${event.id}]  <-- POST ${receiver.url} [200]`);
    } finally {
      expect(await stopProcess(listen)).toBe(0);
      await receiver.close();
    }
  });

  it('--set with a field the operation does not take exits 2 naming it, and creates nothing', async () => {
    const before = (await client.events.list({ limit: 100 })).data.length;
    const created = await run(['trigger', 'customer.created', '--set', 'nickname=Ada'], env);
    expect(created.code).toBe(2);
    expect(created.stderr).toContain('createCustomer does not take the field nickname');
    const updated = await run(['trigger', 'customer.updated', '--set', 'id=x'], env);
    expect(updated.code).toBe(2);
    expect(updated.stderr).toContain('updateCustomer does not take the field id');
    expect((await client.events.list({ limit: 100 })).data).toHaveLength(before);
  });

  it('a value the API refuses exits 1 with its message', async () => {
    const result = await run(['trigger', 'customer.created', '--set', 'email=not-an-email'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('email');
  });

  it('trigger customer.updated and customer.deleted make the calls that produce them', async () => {
    for (const type of ['customer.updated', 'customer.deleted'] as const) {
      const result = await run(['trigger', type], env);
      expect(result, result.stderr).toMatchObject({ code: 0 });
      const id = /Triggered \S+ for customer (\S+)/.exec(result.stdout)![1]!;
      const events = await client.events.list({ customer_id: id });
      expect(events.data.map((e) => e.type)).toEqual([type, 'customer.created']);
    }
  });

  it('events list prints the newest events; events resend sends one again to the endpoint', async () => {
    const [newest] = (await client.events.list({ limit: 1 })).data;
    // A replay queues only what is not on its way already: wait until the endpoint has the event.
    const delivered = () => sink.received.filter((r) => JSON.parse(r.body).id === newest!.id).length;
    await until(() => delivered() === 1);
    const list = await run(['events', 'list', '--limit', '1'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(newest!.id);
    const resend = await run(['events', 'resend', newest!.id, '--endpoint', endpointId], env);
    expect(resend, resend.stderr).toMatchObject({ code: 0 });
    expect(resend.stdout).toMatch(/^Queued 1 event for /);
    await until(() => delivered() === 2);
    const missing = await run(['events', 'resend', 'evt_00000000000000000000000000000000', '--endpoint', endpointId], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Event not found');
  });

  it('--fail-on-error exits 1 when the local receiver does not answer 2xx', async () => {
    const failing = await startReceiver(500);
    const listen = spawn(process.execPath, [bin, 'listen', '--forward-to', failing.url, '--interval', '200', '--fail-on-error'], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await waitForLine(listen, /signing secret is (whsec_\S+)/);
      const exited = new Promise<number | null>((resolve) => listen.once('exit', (code) => resolve(code)));
      expect((await run(['trigger', 'customer.created'], env)).code).toBe(0);
      expect(await exited).toBe(1);
      expect(failing.received).toHaveLength(1);
    } finally {
      await stopProcess(listen);
      await failing.close();
    }
  });
});
