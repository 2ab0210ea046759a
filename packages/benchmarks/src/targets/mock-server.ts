import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Fixture } from '../fixture.js';

export interface MockServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Any well-formed key is the mock's default seller when it runs without a seed file. */
const KEY = `sk_live_${'b'.repeat(48)}`;

/**
 * The built `customers-api-mock` bin (the stateful HTTP mock) in its own process on a free port, once it
 * listens.
 *
 * @example
 * const mock = await startMockServer(); // mock.url, e.g. http://127.0.0.1:41234
 */
export async function startMockServer(): Promise<MockServer> {
  const root = dirname(createRequire(import.meta.url).resolve('@customers-api/mock-server/package.json'));
  const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the mock did not start within 60 s')), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', () => reject(new Error(`the mock exited before listening:\n${output}`)));
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return { url, pid: child.pid!, stop };
}

/**
 * `count` customers created through the mock's API (its store starts empty), as the fixture a GET load
 * needs: the key and the ids.
 *
 * @example
 * const fixture = await seedMockServer(mock.url, 100); // { sellers: [{ key, ids: [100 ids] }] }
 */
export async function seedMockServer(url: string, count: number): Promise<Fixture> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const response = await fetch(`${url}/api/customers`, {
      method: 'POST',
      headers: { 'X-API-Key': KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ first_name: 'Bench', last_name: `Customer ${n}`, email: `bench-${n}@example.com` }),
    });
    if (response.status !== 201) throw new Error(`seeding the mock: ${response.status} ${await response.text()}`);
    ids.push(((await response.json()) as { id: string }).id);
  }
  return { sellers: [{ key: KEY, ids }] };
}
