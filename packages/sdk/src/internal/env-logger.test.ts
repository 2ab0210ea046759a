import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, ID, json, KEY, scriptedFetch } from '../../test/helpers/fixtures';

// The variable is read once per process: each case loads a fresh copy of the SDK's modules.
async function freshClient(fetch: ReturnType<typeof scriptedFetch>['fetch']) {
  vi.resetModules();
  const { CustomersClient } = await import('../client');
  return new CustomersClient({ apiKey: KEY, fetch });
}

/** The lines are written once the lazy chunk's import() settles: a few turns after the call. */
const flushed = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function consoleSpies() {
  const none = () => {};
  return {
    debug: vi.spyOn(console, 'debug').mockImplementation(none),
    info: vi.spyOn(console, 'info').mockImplementation(none),
    warn: vi.spyOn(console, 'warn').mockImplementation(none),
    error: vi.spyOn(console, 'error').mockImplementation(none),
  };
}

describe('CUSTOMERS_API_LOG', () => {
  it('debug logs requests (key redacted), responses, retries and failures, one line each on stderr', async () => {
    vi.stubEnv('CUSTOMERS_API_LOG', 'debug');
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const spies = consoleSpies();
    const { fetch } = scriptedFetch([new TypeError('fetch failed'), json(ADA)]);
    await (await freshClient(fetch)).customers.get(ID);
    await flushed();
    for (const other of [spies.debug, spies.info, spies.warn]) expect(other).not.toHaveBeenCalled();
    const lines = spies.error.mock.calls.map((args) => {
      expect(args).toHaveLength(1);
      return args[0] as string;
    });
    const url = `http://127.0.0.1:3000/api/customers/${ID}`;
    // The failed attempt (its error), the retry, the second attempt and its response: level, type, method and URL.
    expect(lines.map((line) => line.split(' ').slice(1, 5).join(' '))).toEqual([
      `debug request GET ${url}`,
      `error error GET ${url}`,
      `warn retry GET ${url}`,
      `debug request GET ${url}`,
      `info response GET ${url}`,
    ]);
    for (const line of lines) {
      expect(line).not.toContain('\n');
      expect(() => JSON.parse(line.split(' ').slice(5).join(' '))).not.toThrow();
    }
    expect(JSON.parse(lines[0]!.split(' ').slice(5).join(' ')).headers['x-api-key']).toBe('[redacted]');
    expect(JSON.stringify(lines)).not.toContain(KEY);
  });

  it('warn shows only retries and failures; off and unset show nothing', async () => {
    for (const [value, expected] of [['WARN', 2], ['off', 0], [undefined, 0]] as const) {
      if (value) vi.stubEnv('CUSTOMERS_API_LOG', value);
      vi.spyOn(Math, 'random').mockReturnValue(0);
      const spies = consoleSpies();
      const { fetch } = scriptedFetch([new TypeError('fetch failed'), json(ADA)]);
      await (await freshClient(fetch)).customers.get(ID);
      await flushed();
      const total = Object.values(spies).reduce((sum, s) => sum + s.mock.calls.length, 0);
      expect(total, String(value)).toBe(expected);
      expect(spies.error.mock.calls.length).toBe(expected);
      vi.unstubAllEnvs();
      vi.restoreAllMocks();
    }
  });

  it('is read once, on the first client; a logger option wins over it', async () => {
    vi.stubEnv('CUSTOMERS_API_LOG', 'debug');
    const spies = consoleSpies();
    vi.resetModules();
    const { CustomersClient } = await import('../client');
    const { fetch } = scriptedFetch([json(ADA)]);
    new CustomersClient({ apiKey: KEY, fetch });
    vi.stubEnv('CUSTOMERS_API_LOG', 'off');
    await new CustomersClient({ apiKey: KEY, fetch }).customers.get(ID);
    await flushed();
    expect(spies.error).toHaveBeenCalled();
    spies.error.mockClear();
    const events: unknown[] = [];
    await new CustomersClient({ apiKey: KEY, fetch, logger: (e) => events.push(e) }).customers.get(ID);
    expect(spies.error).not.toHaveBeenCalled();
    expect(events).toHaveLength(2);
  });

  it('warns once about a value it does not know, and logs nothing', async () => {
    vi.stubEnv('CUSTOMERS_API_LOG', 'verbose');
    const spies = consoleSpies();
    const { fetch } = scriptedFetch([json(ADA)]);
    const client = await freshClient(fetch);
    await client.customers.get(ID);
    client.withOptions({});
    expect(spies.warn.mock.calls).toEqual([
      ['[customers-api] CUSTOMERS_API_LOG must be debug, info, warn, error or off, not "verbose": logging stays off.'],
    ]);
    expect(spies.debug).not.toHaveBeenCalled();
  });
});
