import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkedFetch, createConformanceLog } from '../conformance/checked-fetch.js';
import { createResponseValidator } from '../conformance/response-validator.js';
import { rememberKey } from '../support/log-capture.js';
import { stopChild } from '../support/stop-child.js';
import type { Target } from './target.js';

const binPath = (): string => {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@customers-api/mock-server/package.json')), 'dist', 'cli.js');
};

/**
 * The built `customers-api-mock` bin as a real process on a free port (`--port 0`), seeded with no sellers so an
 * unknown key is a 401 as on the server. Sellers, revocations and customer counts go through its control API
 * (`/__mock`), as a test suite in any other language would use it.
 *
 * @example
 * const mock = await startMockServerTarget();
 * const seller = await mock.newSeller({ customerLimit: 1 }); // POST /__mock/sellers
 */
export async function startMockServerTarget(log = createConformanceLog()): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-mock-'));
  const seed = join(dir, 'seed.json');
  writeFileSync(seed, JSON.stringify({ sellers: [] }));
  const child = spawn(process.execPath, [binPath(), '--port', '0', '--seed', seed], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const stop = async () => {
    await stopChild(child, exited);
    rmSync(dir, { recursive: true, force: true });
  };
  const baseUrl = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the mock did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the mock exited with ${code}:\n${output}`));
    });
  }).catch(async (error) => {
    await stop();
    throw error;
  });

  const control = async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T | undefined> => {
    const response = await fetch(`${baseUrl}/__mock${path}`, {
      method: init.method ?? 'POST',
      // Always JSON: the mock refuses a state-changing control request without it (what a web page could send).
      headers: { 'Content-Type': 'application/json' },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : ((await response.json()) as T);
  };

  return {
    name: 'mock server',
    stateful: true,
    baseUrl,
    fetch: checkedFetch(createResponseValidator(), log),
    log,
    async newSeller({ customerLimit } = {}) {
      const seller = await control<{ id: string; key: string }>('/sellers', { body: customerLimit === undefined ? {} : { customerLimit } });
      return { sellerId: seller!.id, key: rememberKey(seller!.key) };
    },
    async restrictedKey(seller, scopes, mode = 'live') {
      const added = await control<{ key: string }>(`/sellers/${seller.sellerId}/keys`, { body: { mode, scopes } });
      return rememberKey(added!.key);
    },
    async testKey(seller) {
      const added = await control<{ key: string }>(`/sellers/${seller.sellerId}/keys`, { body: { mode: 'test' } });
      return { sellerId: seller.sellerId, key: rememberKey(added!.key) };
    },
    revokeKey: async (seller) => void (await control('/keys/revoke', { body: { key: seller.key } })),
    countCustomers: async (sellerId) => (await control<{ customerCount: number }>(`/sellers/${sellerId}`, { method: 'GET' }))!.customerCount,
    close: stop,
  };
}
