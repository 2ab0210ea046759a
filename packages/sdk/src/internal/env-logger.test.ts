import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, ID, json, KEY, scriptedFetch } from '../../test/helpers/fixtures';

// The variable is read once per process: each case loads a fresh copy of the SDK's modules.
async function freshClient(fetch: ReturnType<typeof scriptedFetch>['fetch']) {
  vi.resetModules();
  const { CustomersClient } = await import('../client');
  return new CustomersClient({ apiKey: KEY, fetch });
}

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
  it('debug logs requests (key redacted), responses, retries and failures, each at its console level', async () => {
    vi.stubEnv('CUSTOMERS_API_LOG', 'debug');
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const spies = consoleSpies();
    const { fetch } = scriptedFetch([new TypeError('fetch failed'), json(ADA)]);
    await (await freshClient(fetch)).customers.get(ID);
    expect(spies.debug.mock.calls.map(([, e]) => e.type)).toEqual(['request', 'request']);
    expect(spies.debug.mock.calls[0]![0]).toBe('[customers-api]');
    expect(spies.debug.mock.calls[0]![1].headers['x-api-key']).toBe('[redacted]');
    expect(spies.info.mock.calls.map(([, e]) => e.type)).toEqual(['response']);
    expect(spies.warn.mock.calls.map(([, e]) => e.type)).toEqual(['retry']);
    expect(spies.error.mock.calls.map(([, e]) => e.type)).toEqual(['error']);
    expect(JSON.stringify(Object.values(spies).map((s) => s.mock.calls))).not.toContain(KEY);
  });

  it('warn shows only retries and failures; off and unset show nothing', async () => {
    for (const [value, expected] of [['WARN', 2], ['off', 0], [undefined, 0]] as const) {
      if (value) vi.stubEnv('CUSTOMERS_API_LOG', value);
      vi.spyOn(Math, 'random').mockReturnValue(0);
      const spies = consoleSpies();
      const { fetch } = scriptedFetch([new TypeError('fetch failed'), json(ADA)]);
      await (await freshClient(fetch)).customers.get(ID);
      const total = Object.values(spies).reduce((sum, s) => sum + s.mock.calls.length, 0);
      expect(total, String(value)).toBe(expected);
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
    expect(spies.debug).toHaveBeenCalled();
    spies.debug.mockClear();
    const events: unknown[] = [];
    await new CustomersClient({ apiKey: KEY, fetch, logger: (e) => events.push(e) }).customers.get(ID);
    expect(spies.debug).not.toHaveBeenCalled();
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
