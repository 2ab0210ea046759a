// The built bin as a user runs it: it prints where it listens and the keys, refuses a bad seed file naming the
// entry, and stops cleanly (exit 0) on SIGTERM and SIGINT.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { ada, key, startReceiver } from './support.js';

const BIN = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mock-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    void exit.then((code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  url.catch(() => undefined); // awaited only by the tests that expect a start
  return { child, exit, url, output: () => output };
}

const seedFile = (value: unknown) => {
  const file = join(dir, `seed-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(value));
  return file;
};

describe('customers-api-mock', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`serves the seeded keys, prints them with a curl example, and exits 0 on ${signal}`, async () => {
      const mock = run(['--port', '0', '--seed', seedFile({ sellers: [{ keys: [{ key: key('s') }] }] })]);
      const url = await mock.url;
      expect(mock.output()).toContain(key('s'));
      expect(mock.output()).toContain(`curl -i -X POST ${url}/api/customers`);
      const ok = await fetch(`${url}/api/customers/x`, { headers: { 'X-API-Key': key('s') } });
      expect(ok.status).toBe(404);
      const other = await fetch(`${url}/api/customers/x`, { headers: { 'X-API-Key': key('t') } });
      expect(other.status).toBe(401);
      mock.child.kill(signal);
      expect(await mock.exit).toBe(0);
    });
  }

  it('refuses a bad seed file with exit 2 and a message naming the entry', async () => {
    const bad = run(['--seed', seedFile({ sellers: [{ keys: [{ key: key('a') }] }, { keys: [{ key: 'sk_live_123' }] }] })]);
    expect(await bad.exit).toBe(2);
    expect(bad.output()).toContain('seed.sellers[1].keys[0].key: must be sk_live_, sk_test_, rk_live_ or rk_test_ followed by 48 letters or digits');
    const duplicate = run(['--seed', seedFile({ sellers: [{ keys: [{ key: key('a') }], customers: [{ first_name: 'A', last_name: 'B', email: 'a@b.de' }, { first_name: 'A', last_name: 'B', email: 'A@b.de' }] }] })]);
    expect(await duplicate.exit).toBe(2);
    expect(duplicate.output()).toContain('seed.sellers[0].customers[1] was rejected: 409 A customer with email A@b.de already exists');
  });

  it('refuses a bad command line with exit 2 and the usage', async () => {
    const bad = run(['--port', 'http']);
    expect(await bad.exit).toBe(2);
    expect(bad.output()).toContain('--port must be a whole number from 0 to 65535, got http');
    expect(bad.output()).toContain('Usage: customers-api-mock');
    const badLimit = run(['--rate-limit', 'lots']);
    expect(await badLimit.exit).toBe(2);
    expect(badLimit.output()).toContain('--rate-limit must be a whole number of requests per second (0: none), got lots');
  });

  it("simulates the server's rate limit with --rate-limit N: 429, Retry-After and the RateLimit headers", async () => {
    const mock = run(['--port', '0', '--rate-limit', '1']);
    const url = await mock.url;
    const get = () => fetch(`${url}/api/customers`, { headers: { 'X-API-Key': key('s') } });
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"seller";q=1;w=1');
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'Too Many Requests', message: 'Too many requests; retry after 1 second' });
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('ratelimit')).toBe('"seller";r=0;t=1');
    mock.child.kill('SIGTERM');
    expect(await mock.exit).toBe(0);
  });

  it("prints the seed file's webhook endpoints with their secrets, generated when absent, and delivers signed with them", async () => {
    const receiver = await startReceiver();
    const mock = run(['--port', '0', '--seed', seedFile({ webhooks: [{ url: receiver.url, events: ['customer.created'] }] })]);
    try {
      const url = await mock.url;
      const secret = /secret (whsec_\S+)/.exec(mock.output())?.[1];
      expect(mock.output()).toContain(`${receiver.url}  customer.created of every seller`);
      const created = await fetch(`${url}/api/customers`, {
        method: 'POST',
        headers: { 'X-API-Key': key('s'), 'Content-Type': 'application/json' },
        body: JSON.stringify(ada),
      });
      expect(created.status).toBe(201);
      const [got] = await receiver.waitFor(1);
      expect(new Webhook(secret!).verify(got!.body, got!.headers)).toMatchObject({ type: 'customer.created', data: { customer: await created.json() } });
    } finally {
      mock.child.kill('SIGTERM');
      await mock.exit;
      await receiver.close();
    }
  });

  it('refuses a bad webhook entry of the seed file with exit 2, naming it', async () => {
    const bad = run(['--seed', seedFile({ webhooks: [{ url: 'http://127.0.0.1:9000/hook', events: ['customer.merged'] }] })]);
    expect(await bad.exit).toBe(2);
    expect(bad.output()).toContain('seed.webhooks[0].events[0]: must be one of customer.created, customer.updated, customer.deleted');
  });

  it('prints the version of its package.json with --version (and -v), exit 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const run = spawnSync(process.execPath, [BIN, flag], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(`${version}\n`);
    }
  });
});
