// Usage in a browser: core's rules (Web Crypto, no Node APIs) behind MSW's service worker, in Chromium.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const require = createRequire(import.meta.url);

let outDir: string;
let server: Server;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it or set CHROMIUM_PATH`);
  }
  outDir = await mkdtemp(join(tmpdir(), 'customers-msw-browser-'));
  await build({
    entry: { app: 'test/browser/app.ts' },
    outDir,
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    noExternal: [/.*/],
    config: false,
    silent: true,
  });
  const files: Record<string, [string, string]> = {
    '/': ['<!doctype html><script type="module" src="/app.js"></script>', 'text/html'],
    '/app.js': [await readFile(join(outDir, 'app.js'), 'utf8'), 'text/javascript'],
    '/mockServiceWorker.js': [await readFile(require.resolve('msw/mockServiceWorker.js'), 'utf8'), 'text/javascript'],
  };
  server = createServer((request, response) => {
    const file = files[request.url ?? ''];
    // Anything the worker lets through lands here as a plain 404, which the assertions would notice.
    response.writeHead(file ? 200 : 404, { 'Content-Type': file?.[1] ?? 'text/plain' });
    response.end(file?.[0] ?? 'not mocked');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('customers mock (browser)', () => {
  it('serves the API from the service worker with the same rules, seeds and forced failures', async () => {
    const page = await browser.newPage();
    await page.goto(origin);
    const grace = await page.evaluate(() => window.mockReady);
    const results = await page.evaluate(async (seededId) => {
      const key = `sk_live_${'A'.repeat(48)}`; // any well-formed key: the default seller
      const post = (body: unknown) =>
        fetch('/api/customers', {
          method: 'POST',
          headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      const seeded = await fetch(`/api/customers/${seededId}`, { headers: { 'X-API-Key': key } });
      const created = await post({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
      const customer = await created.json();
      const overLimit = await post({ first_name: 'Linus', last_name: 'Torvalds', email: 'linus@example.com' });
      const invalid = await post({ first_name: 'Ada', last_name: 'L', email: 'nope' });
      const unauthenticated = await fetch(`/api/customers/${customer.id}`);
      const fetched = await fetch(`/api/customers/${customer.id}`, { headers: { Authorization: `Bearer ${key}` } });

      window.mock.nextResponse('getCustomer', { status: 503, headers: { 'Retry-After': '1' } });
      window.mock.nextResponse('getCustomer', { networkError: true });
      const unavailable = await fetch(`/api/customers/${customer.id}`, { headers: { 'X-API-Key': key } });
      const dropped = await fetch(`/api/customers/${customer.id}`, { headers: { 'X-API-Key': key } }).then(
        () => 'answered',
        (error: Error) => error.name,
      );
      return {
        seeded: [seeded.status, await seeded.json()],
        created: [created.status, created.headers.get('x-request-id') !== null],
        customer,
        overLimit: [overLimit.status, await overLimit.json()],
        invalid: [invalid.status, await invalid.json()],
        unauthenticated: unauthenticated.status,
        fetched: [fetched.status, await fetched.json()],
        unavailable: [unavailable.status, unavailable.headers.get('retry-after'), await unavailable.json()],
        dropped,
      };
    }, grace.id);

    expect(results.seeded).toEqual([200, grace]);
    expect(grace).toMatchObject({ first_name: 'Grace', language: 'de', status: 'active', source: 'api' });
    expect(results.created).toEqual([201, true]);
    expect(results.customer).toMatchObject({ first_name: 'Ada', seller_id: grace.seller_id, source: 'api' });
    expect(results.overLimit).toEqual([
      403,
      { error: 'Forbidden', message: 'Customer limit reached; your subscription plan allows 2 customers' },
    ]);
    expect(results.invalid).toEqual([400, { error: 'Bad Request', message: 'email must be a valid email address' }]);
    expect(results.unauthenticated).toBe(401);
    expect(results.fetched).toEqual([200, results.customer]);
    expect(results.unavailable).toEqual([
      503,
      '1',
      { error: 'Service Unavailable', message: 'The service is temporarily unavailable; retry later' },
    ]);
    expect(results.dropped).toBe('TypeError');
    await page.close();
  }, 60_000);
});
