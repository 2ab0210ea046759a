import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Logger } from 'pino';
import { createApiKey } from '../db/api-keys.js';
import type { DatabaseHandle, DialectName } from '../db/connect.js';
import { createSeller } from '../db/sellers.js';
import { buildApp, type AppOptions } from '../build-app.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestSeller {
  sellerId: string;
  keyId: string;
  key: string;
}

export interface CallOptions {
  key?: string | undefined;
  /** A JSON value (sent as application/json) or, with `raw`, the exact body text. */
  body?: unknown;
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export interface TestServer {
  url: string;
  app: FastifyInstance;
  handle: DatabaseHandle;
  database: TestDatabase;
  /** A new seller (plan starter unless a limit override is given) with one API key. */
  seller(options?: { customerLimit?: number | null }): Promise<TestSeller>;
  /** Another key of a seller: a live secret key unless `mode` or `scopes` (a restricted key) say otherwise. */
  key(sellerId: string, options?: { mode?: 'live' | 'test'; scopes?: readonly string[] | null }): Promise<{ keyId: string; key: string }>;
  /** A real HTTP request (fetch) to the listening server. */
  call(method: string, path: string, options?: CallOptions): Promise<TestResponse>;
  /** Another app instance with its own pool on the same database, listening on its own port. */
  sibling(): Promise<{ url: string; close(): Promise<void> }>;
  close(): Promise<void>;
}

/** buildApp on a fresh database of the given kind, listening on 127.0.0.1 and a free port. */
export async function startTestServer(
  dialect: DialectName,
  options: Omit<AppOptions, 'database' | 'logger'> & { logger?: Logger } = {},
): Promise<TestServer> {
  const database = await createTestDatabase(dialect);
  const handle = await database.open();
  const app = await buildApp({ database: handle, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = listeningUrl(app);
  const siblings: { close(): Promise<void> }[] = [];

  return {
    url,
    app,
    handle,
    database,
    async seller({ customerLimit = null } = {}) {
      const seller = await createSeller(handle, { name: 'Test seller', plan: 'starter', customerLimit });
      const key = await createApiKey(handle, { sellerId: seller.id, name: 'test' });
      return { sellerId: seller.id, keyId: key.id, key: key.key };
    },
    async key(sellerId, { mode, scopes } = {}) {
      const key = await createApiKey(handle, { sellerId, name: 'test', ...(mode && { mode }), scopes: scopes ?? null });
      return { keyId: key.id, key: key.key };
    },
    call: (method, path, callOptions) => call(url, method, path, callOptions),
    async sibling() {
      const otherHandle = await database.open();
      const other = await buildApp({ database: otherHandle });
      await other.listen({ port: 0, host: '127.0.0.1' });
      const entry = { url: listeningUrl(other), close: async () => { await other.close(); await otherHandle.close(); } };
      siblings.push(entry);
      return entry;
    },
    async close() {
      await Promise.all(siblings.map((s) => s.close()));
      await app.close();
      await database.dispose();
    },
  };
}

function listeningUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
}

export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  let body: string | Uint8Array | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${base}${path}`, { method, headers, body: body as BodyInit | undefined });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A valid create body with a unique email. */
export function newCustomer(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: `ada.${Math.random().toString(36).slice(2)}@example.com`,
    ...overrides,
  };
}

/** Expects the exact error body of openapi.yaml: two properties, the reason phrase and a message. */
export function errorBody(error: string, message: string | RegExp) {
  return { error, message: typeof message === 'string' ? message : expect.stringMatching(message) };
}
