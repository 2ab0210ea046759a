import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CustomersClient, InternalServerError, TimeoutError, UserAbortError } from '../../src/index';
import { ADA, KEY } from '../helpers/fixtures';

// A tiny real HTTP server on 127.0.0.1 that honours Idempotency-Key the way openapi.yaml describes it,
// and can be told to fail the next attempts in two ways: answer 503, or create and then drop the connection.
type Mode = 'ok' | '503' | 'drop-after-create' | 'hang' | 'stall-body';
let plan: Mode[] = [];
let customers: Map<string, typeof ADA> = new Map();
let replay: Map<string, { body: string; customer: typeof ADA }> = new Map();
let attempts: Array<{ key: string | undefined; requestId: string | undefined }> = [];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  const key = req.headers['idempotency-key'] as string | undefined;
  attempts.push({ key, requestId: req.headers['x-request-id'] as string | undefined });
  const mode = plan.shift() ?? 'ok';
  const send = (status: number, payload: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${attempts.length}` });
    res.end(JSON.stringify(payload));
  };
  if (mode === 'hang') return; // never answers
  if (mode === 'stall-body') {
    // Status and headers arrive, then half the body, then nothing.
    res.writeHead(201, { 'content-type': 'application/json', 'content-length': '500', 'x-request-id': `req_${attempts.length}` });
    res.write('{"id":');
    return;
  }
  if (mode === '503') return send(503, { error: 'Service Unavailable', message: 'try again' });
  if (req.method !== 'POST' || req.url !== '/api/customers') return send(404, { error: 'Not Found', message: 'Customer not found' });
  const seen = key ? replay.get(key) : undefined;
  if (seen) {
    if (seen.body !== body) return send(400, { error: 'Bad Request', message: 'Idempotency-Key was already used with a different request body' });
    return send(201, seen.customer);
  }
  const customer = { ...ADA, ...JSON.parse(body), id: randomUUID() };
  customers.set(customer.id, customer);
  if (key) replay.set(key, { body, customer });
  if (mode === 'drop-after-create') {
    req.socket.destroy(); // the customer exists, but the client never hears about it
    return;
  }
  send(201, customer);
}

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});
beforeEach(() => {
  plan = [];
  customers = new Map();
  replay = new Map();
  attempts = [];
  vi.spyOn(Math, 'random').mockReturnValue(0); // zero backoff: retries happen without real sleeping
});
afterEach(() => {
  vi.restoreAllMocks();
});

const BODY = { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' };

describe('against a real HTTP server', () => {
  it('a create whose first attempts get 503 creates exactly one customer', async () => {
    plan = ['503', '503', 'ok'];
    const client = new CustomersClient({ apiKey: KEY, baseUrl });
    const created = await client.customers.create(BODY);
    expect(created.first_name).toBe('Grace');
    expect(customers.size).toBe(1);
    expect(attempts).toHaveLength(3);
  });

  it('a create whose response is lost is retried with the same key and replayed: one customer, same id', async () => {
    plan = ['drop-after-create', 'ok'];
    const client = new CustomersClient({ apiKey: KEY, baseUrl });
    const created = await client.customers.create(BODY, { requestId: 'req_caller' });
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.key).toBeDefined();
    expect(attempts[1]!.key).toBe(attempts[0]!.key);
    expect(attempts.map((a) => a.requestId)).toEqual(['req_caller', 'req_caller']);
    expect(customers.size).toBe(1);
    expect(created.id).toBe([...customers.keys()][0]);
  });

  it('two separate creates are two customers (a fresh key per call)', async () => {
    const client = new CustomersClient({ apiKey: KEY, baseUrl });
    await client.customers.create(BODY);
    await client.customers.create(BODY);
    expect(customers.size).toBe(2);
  });

  it('gives up after maxRetries with the last 503', async () => {
    plan = ['503', '503', '503', '503'];
    const client = new CustomersClient({ apiKey: KEY, baseUrl });
    const err = await client.customers.create(BODY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(attempts).toHaveLength(3);
    expect((err as InternalServerError).requestId).toBe('req_3');
    expect(customers.size).toBe(0);
  });

  // Timeouts of these tests leave a loaded machine's server time to take the request before the client gives up:
  // a request it had not read yet would be handled during the next test, with that test's plan.
  it('times out on a server that never answers', async () => {
    plan = ['hang'];
    const client = new CustomersClient({ apiKey: KEY, baseUrl, timeout: 500, maxRetries: 0 });
    await expect(client.customers.create(BODY)).rejects.toBeInstanceOf(TimeoutError);
    expect(attempts).toHaveLength(1);
  });

  it('times out a body that stalls after the headers, and retries it like any timeout', async () => {
    plan = ['stall-body', 'ok'];
    const client = new CustomersClient({ apiKey: KEY, baseUrl, timeout: 500 });
    const { data, requestId } = await client.customers.create(BODY).withResponse();
    expect(data.first_name).toBe('Grace');
    expect(requestId).toBe('req_2');
    expect(attempts).toHaveLength(2);
    expect(customers.size).toBe(1);
  });

  it('reports a stalled body as TimeoutError when no retry is left', async () => {
    plan = ['stall-body'];
    const client = new CustomersClient({ apiKey: KEY, baseUrl, timeout: 500, maxRetries: 0 });
    await expect(client.customers.get(ADA.id)).rejects.toBeInstanceOf(TimeoutError);
    expect(attempts).toHaveLength(1);
  });

  it('aborts a request in flight when the caller asks', async () => {
    plan = ['hang', 'ok'];
    const client = new CustomersClient({ apiKey: KEY, baseUrl });
    const controller = new AbortController();
    const pending = client.customers.create(BODY, { signal: controller.signal });
    while (attempts.length === 0) await new Promise((r) => setImmediate(r));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(UserAbortError);
    expect(attempts).toHaveLength(1);
  });
});
