import { inspect } from 'node:util';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADA, BASE_URL, ID, KEY, scriptedFetch } from '../test/helpers/fixtures';
import { CustomersClient, DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './client';
import { ConfigurationError, NotFoundError } from './core/errors';
import pkg from '../package.json' with { type: 'json' };

const seen: Request[] = [];
const server = setupServer(
  http.get(`${BASE_URL}/api/customers/:id`, ({ request }) => {
    seen.push(request.clone());
    return HttpResponse.json(ADA, { headers: { 'X-Request-Id': request.headers.get('x-request-id') ?? 'req_server' } });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  seen.length = 0;
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
afterAll(() => server.close());

describe('construction', () => {
  it('applies documented defaults', () => {
    vi.stubEnv('CUSTOMERS_API_BASE_URL', '');
    const client = new CustomersClient({ apiKey: KEY });
    expect(client.baseUrl).toBe(DEFAULT_BASE_URL);
    expect(DEFAULT_BASE_URL).toBe('http://127.0.0.1:3000');
    expect(client.maxRetries).toBe(DEFAULT_MAX_RETRIES);
    expect(DEFAULT_MAX_RETRIES).toBe(2);
    expect(client.timeout).toBe(DEFAULT_TIMEOUT_MS);
    expect(DEFAULT_TIMEOUT_MS).toBe(60_000);
  });

  it('takes the key and base URL from the environment when not given', () => {
    vi.stubEnv('CUSTOMERS_API_KEY', KEY);
    vi.stubEnv('CUSTOMERS_API_BASE_URL', 'https://api.example.com/');
    const client = new CustomersClient();
    expect(client.baseUrl).toBe('https://api.example.com');
  });

  it('prefers explicit options over the environment', () => {
    vi.stubEnv('CUSTOMERS_API_KEY', 'not-a-key');
    vi.stubEnv('CUSTOMERS_API_BASE_URL', 'https://env.example.com');
    const client = new CustomersClient({ apiKey: KEY, baseUrl: 'http://localhost:9/' });
    expect(client.baseUrl).toBe('http://localhost:9');
  });

  it('refuses a missing key', () => {
    vi.stubEnv('CUSTOMERS_API_KEY', '');
    expect(() => new CustomersClient()).toThrow(ConfigurationError);
    expect(() => new CustomersClient()).toThrow(/Missing API key/);
  });

  it('refuses a malformed key without echoing it', () => {
    const bad = 'sk_live_thisIsMySecretButTooShort';
    expect(() => new CustomersClient({ apiKey: bad })).toThrow(/Malformed API key/);
    try {
      new CustomersClient({ apiKey: bad });
    } catch (err) {
      expect(String(err)).not.toContain('thisIsMySecret');
      expect(inspect(err)).not.toContain('thisIsMySecret');
    }
  });

  it.each([
    [{ baseUrl: 'not a url' }, /absolute http\(s\) URL/],
    [{ baseUrl: 'ftp://example.com' }, /http or https/],
    [{ maxRetries: -1 }, /maxRetries must be/],
    [{ timeout: 0 }, /timeout must be/],
    [{ timeout: Number.NaN }, /timeout must be/],
  ])('refuses bad options %o', (options, message) => {
    expect(() => new CustomersClient({ apiKey: KEY, ...options })).toThrow(message);
  });

  it('refuses to run in a browser-like runtime without the explicit opt-in', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => new CustomersClient({ apiKey: KEY })).toThrow(ConfigurationError);
    expect(() => new CustomersClient({ apiKey: KEY })).toThrow(/dangerouslyAllowBrowser/);
    expect(() => new CustomersClient({ apiKey: KEY, dangerouslyAllowBrowser: true })).not.toThrow();
  });

  it('is not fooled by a lone window (e.g. a jsdom-less polyfill) or document', () => {
    vi.stubGlobal('window', {});
    expect(() => new CustomersClient({ apiKey: KEY })).not.toThrow();
  });

  it('never shows the key when the client is logged or serialised', () => {
    const client = new CustomersClient({ apiKey: KEY });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(client)).not.toContain(KEY);
    expect(Object.values(client).map(String).join()).not.toContain(KEY);
  });
});

describe('requests (MSW)', () => {
  it('sends the key as X-API-Key, Accept, a versioned User-Agent and the SDK and runtime headers', async () => {
    const client = new CustomersClient({ apiKey: KEY, baseUrl: BASE_URL });
    await client.customers.get(ID);
    const request = seen[0]!;
    expect(request.headers.get('x-api-key')).toBe(KEY);
    expect(request.headers.get('accept')).toBe('application/json');
    expect(request.headers.get('user-agent')).toBe(`customers-api-sdk/${pkg.version}`);
    expect(request.headers.get('x-customers-sdk-version')).toBe(pkg.version);
    expect(request.headers.get('x-customers-sdk-runtime')).toBe('node');
    expect(request.headers.get('x-customers-sdk-runtime-version')).toBe(process.versions.node);
    expect(request.headers.has('authorization')).toBe(false);
    expect(CustomersClient.VERSION).toBe(pkg.version);
  });

  it('merges default headers, per-call headers and a caller request id', async () => {
    const client = new CustomersClient({
      apiKey: KEY,
      baseUrl: BASE_URL,
      defaultHeaders: { 'X-Tenant': 'shop-1', 'X-Trace': 'default', 'User-Agent': 'my-app/2' },
    });
    const { requestId } = await client.customers
      .get(ID, { headers: { 'X-Trace': 'call' }, requestId: 'req_mine.1' })
      .withResponse();
    const request = seen[0]!;
    expect(request.headers.get('x-tenant')).toBe('shop-1');
    expect(request.headers.get('x-trace')).toBe('call');
    expect(request.headers.get('user-agent')).toBe('my-app/2');
    expect(request.headers.get('x-request-id')).toBe('req_mine.1');
    expect(requestId).toBe('req_mine.1');
  });

  it('uses a custom fetch instead of the global one', async () => {
    const { fetch, calls } = scriptedFetch([new Response(null, { status: 404, headers: { 'x-request-id': 'r9' } })]);
    const client = new CustomersClient({ apiKey: KEY, baseUrl: 'https://api.example.com', fetch });
    const err = await client.customers.get(ID).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).requestId).toBe('r9');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(`https://api.example.com/api/customers/${ID}`);
    expect(seen).toHaveLength(0);
  });

  it('calls a custom fetch unbound, like a native browser fetch requires', async () => {
    let receiver: unknown = 'not called';
    const client = new CustomersClient({
      apiKey: KEY,
      fetch: function (this: unknown) {
        receiver = this;
        return Promise.resolve(new Response(null, { status: 204 }));
      },
    });
    await client.customers.delete(ID);
    expect(receiver).toBeUndefined();
  });
});
