import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildApp, createApiKey, createSecretBox, createSeller } from '@customers-api/server';
import { createTestDatabase } from '@customers-api/server/testing';

/** An API the CLI talks to: its address, a seller's key, and the URL an endpoint may be registered at. */
export interface ApiTarget {
  name: string;
  baseUrl: string;
  key: string;
  /** The URL to register the seller's endpoint at (both targets deliver there), so the API records events. */
  endpointUrl(sink: string): string;
  close(): Promise<void>;
}

/**
 * The reference server (buildApp) on a fresh SQLite file, as the contract suite starts it, delivering webhooks
 * from this process (private URLs allowed: the receivers are on 127.0.0.1).
 */
export async function startServer(): Promise<ApiTarget> {
  const database = await createTestDatabase('sqlite');
  const handle = await database.open();
  const app = await buildApp({ database: handle, webhooks: { secrets: createSecretBox(randomBytes(32)), allowPrivate: true, pollIntervalMs: 100 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const seller = await createSeller(handle, { name: 'CLI seller', plan: 'starter', customerLimit: null });
  const { key } = await createApiKey(handle, { sellerId: seller.id, name: 'cli', expiresAt: null });
  return {
    name: 'server (SQLite)',
    baseUrl: `http://127.0.0.1:${port}`,
    key,
    endpointUrl: (sink) => sink,
    async close() {
      await app.close();
      await database.dispose();
    },
  };
}

/** The built HTTP mock bin as a real process; without a seed, any well-formed key is its one seller. */
export async function startMock(): Promise<ApiTarget> {
  const require = createRequire(import.meta.url);
  const bin = join(dirname(require.resolve('@customers-api/mock-server/package.json')), 'dist', 'cli.js');
  const child = spawn(process.execPath, [bin, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const baseUrl = await waitForLine(child, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return {
    name: 'HTTP mock',
    baseUrl,
    key: `sk_live_${'c'.repeat(48)}`,
    endpointUrl: (sink) => sink,
    async close() {
      await stopProcess(child);
    },
  };
}

/** Resolves with the first capture of `pattern` in the child's output (30 s at most: a loaded machine). */
export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] ?? match[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}:\n${output}`));
    });
  });
}

/** SIGTERM, then the exit code (SIGKILL after 10 s). */
export async function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const [code] = (await exited) as [number | null];
  clearTimeout(timer);
  return code;
}
