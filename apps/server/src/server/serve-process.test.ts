import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { call, newCustomer } from '../test/test-server.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');

interface ServeProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** stdout alone: the JSON log lines. */
  stdout(): string;
  /** SIGTERM, then the exit code once the process is gone. */
  stop(): Promise<number | null>;
}

/** The URL the server says it listens on: its `listening` log line, once it has been written. */
function listeningUrl(stdout: string): string | undefined {
  const line = stdout.split('\n').slice(0, -1).find((text) => text.includes('"msg":"listening"'));
  return line === undefined ? undefined : (JSON.parse(line) as { url: string }).url;
}

/**
 * `node dist/cli.js serve` as a real process on a port the system picks (`--port 0`: no window in which another
 * process can take a port found free beforehand); resolves once it logs that it listens, and where.
 */
async function serve(database: string): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--database', database], {
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  await new Promise<void>((resolveReady, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      // The banner (stderr) and the log lines (stdout) travel on two pipes: wait for both when a demo was seeded.
      const seeded = stdout.includes('created a demo seller');
      if (listeningUrl(stdout) !== undefined && (!seeded || /dashboard\/login\?token=\S+\n/.test(out))) resolveReady();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    exited.then((code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  const url = listeningUrl(stdout);
  if (url === undefined) throw new Error(`no listening line on stdout: ${stdout}`);
  return {
    child,
    url,
    output: () => out,
    stdout: () => stdout,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('serve as real processes (dist/cli.js)', () => {
  // turbo builds the package before its tests; a missing build is a failure, not a reason to skip.
  it('has a built CLI to start', () => expect(existsSync(CLI), `${CLI} is missing: run the build first`).toBe(true));

  const databases: TestDatabase[] = [];
  const running: ServeProcess[] = [];
  afterAll(async () => {
    await Promise.all(running.map((p) => (p.child.exitCode === null ? p.stop() : undefined)));
    await Promise.all(databases.map((d) => d.dispose()));
  });

  it.each(['sqlite', 'postgres'] as const)(
    'on %s: first start prints a demo key once; the curl example works; SIGTERM stops cleanly',
    async (dialect) => {
      const database = await createTestDatabase(dialect);
      databases.push(database);
      const first = await serve(database.url);
      running.push(first);
      const key = /API key:\s+(sk_live_\w+)/.exec(first.output())?.[1];
      expect(key).toBeDefined();
      expect(first.output()).toContain(`curl -i -X POST ${first.url}/api/customers`);
      const created = await call(first.url, 'POST', '/api/customers', {
        key,
        body: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      });
      expect(created.status).toBe(201);
      // The key and the sign-in link appear in the banner on stderr only; stdout is the JSON log stream.
      const link = /(http:\/\/\S+\/dashboard\/login\?token=)(\S+)/.exec(first.output());
      expect(link).not.toBeNull();
      expect(first.stdout()).not.toContain(key);
      expect(first.stdout()).not.toContain(link![2]);
      expect(first.stdout()).not.toContain('API key:');
      expect(first.stdout().split('\n').filter(Boolean).every((line) => line.startsWith('{'))).toBe(true);
      expect(await first.stop()).toBe(0);
      expect(first.output()).toContain('"msg":"stopped"');

      const again = await serve(database.url);
      running.push(again);
      expect(again.output()).not.toContain('API key:');
      expect((await call(again.url, 'GET', `/api/customers/${created.json.id}`, { key })).status).toBe(200);
      expect(await again.stop()).toBe(0);
    },
  );

  it.each(['postgres', 'sqlite'] as const)('two server processes on one %s database behave as one', async (dialect) => {
    const database = await createTestDatabase(dialect);
    databases.push(database);
    const [a, b] = await Promise.all([serve(database.url), serve(database.url)]);
    running.push(a!, b!);
    const banners = [a!, b!].filter((p) => p.output().includes('API key:'));
    expect(banners).toHaveLength(1);
    const key = /API key:\s+(sk_live_\w+)/.exec(banners[0]!.output())![1];
    const urls = [a!.url, b!.url];
    const dups = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(urls[i % 2]!, 'POST', '/api/customers', { key, body: newCustomer({ email: 'two@example.com' }) }),
      ),
    );
    expect(dups.filter((r) => r.status === 201)).toHaveLength(1);
    expect(dups.filter((r) => r.status === 409)).toHaveLength(19);
    // The demo seller's plan allows 100 customers: 130 creates through both processes store exactly 100.
    const many = await Promise.all(
      Array.from({ length: 130 }, (_, i) => call(urls[i % 2]!, 'POST', '/api/customers', { key, body: newCustomer() })),
    );
    expect(many.filter((r) => r.status === 201)).toHaveLength(99);
    expect(many.filter((r) => r.status === 403)).toHaveLength(31);
    expect(await a!.stop()).toBe(0);
    expect(await b!.stop()).toBe(0);
  });
});
