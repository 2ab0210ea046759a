import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import { MemoryKeyRegistry } from '../auth/memory-key-registry.js';
import { createCustomerService } from '../customers/customer-service.js';
import { createApiHandler } from '../http/api-handler.js';
import type { ApiResponse } from '../http/types.js';
import { createMockApi, type MockApi } from '../mock/mock-api.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import type { TestClockDoor } from './test-clock.js';

const DAY = 86_400_000;
const live = generateApiKey({ kind: 'secret', mode: 'live' });
const test = generateApiKey({ kind: 'secret', mode: 'test' });
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

function send(api: MockApi, method: string, path: string, key: string, body?: unknown) {
  const headers = new Headers({ 'X-API-Key': key, 'Content-Type': 'application/json' });
  return api.answer(method, path, async () => ({
    method,
    path,
    query: '',
    header: (name) => headers.get(name) ?? undefined,
    headers: Object.fromEntries(headers),
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  })) as Promise<ApiResponse>;
}

// The mocks' door: POST /api/test_clock moves their one clock, the one /__mock/clock moves.
describe('the test clock on the mocks', () => {
  async function mock() {
    const api = createMockApi({ frozenAt: '2026-01-01T00:00:00Z' });
    const sellerId = api.defaultSeller!.sellerId;
    await api.addKey(sellerId, { apiKey: live });
    await api.addKey(sellerId, { apiKey: test });
    return api;
  }

  it('reads and moves the mock clock for a test key, and refuses a live key before reading the body', async () => {
    const api = await mock();
    expect(await send(api, 'GET', '/api/test_clock', test)).toMatchObject({ status: 200, body: { now: '2026-01-01T00:00:00.000Z', frozen: true } });
    const advanced = await send(api, 'POST', '/api/test_clock', test, { advance_ms: 3 * DAY });
    expect(advanced).toMatchObject({ status: 200, body: { now: '2026-01-04T00:00:00.000Z', frozen: true } });
    expect(api.clock.state().now).toBe('2026-01-04T00:00:00.000Z');
    const set = await send(api, 'POST', '/api/test_clock', test, { now: '2026-02-01T00:00:00Z' });
    expect(set).toMatchObject({ status: 200, body: { now: '2026-02-01T00:00:00.000Z' } });
    const created = await send(api, 'POST', '/api/customers', test, ada);
    expect(created.body).toMatchObject({ created_at: '2026-02-01T00:00:00.000Z', livemode: false });

    for (const [method, body] of [['GET', undefined], ['POST', 'not json at all']] as const) {
      expect(await send(api, method, '/api/test_clock', live, body)).toMatchObject({
        status: 403,
        body: { error: 'Forbidden', message: `${method === 'GET' ? 'getTestClock' : 'advanceTestClock'} needs a test key (sk_test_ or rk_test_); this key is live` },
      });
    }
  });

  it('never goes back, and takes exactly one of now and advance_ms', async () => {
    const api = await mock();
    const cases: [unknown, string][] = [
      [{ now: '2025-12-31T23:59:59Z' }, 'now: the test clock cannot go back: 2025-12-31T23:59:59.000Z is before its now, 2026-01-01T00:00:00.000Z'],
      [{}, 'body must have exactly one of now (an ISO 8601 instant) and advance_ms'],
      [{ now: '2026-02-01T00:00:00Z', advance_ms: 1 }, 'body must have exactly one of now (an ISO 8601 instant) and advance_ms'],
      [{ advance_ms: -1 }, 'advance_ms must be at least 0'],
      [{ advance_ms: 1.5 }, 'advance_ms must be an integer'],
      [{ now: 'tomorrow' }, 'now must be an ISO 8601 date-time with a time zone, such as 2026-11-25T09:30:00Z'],
      [{ advance_ms: 1, later: true }, 'later is not an allowed property'],
      [{ later: true }, 'later is not an allowed property'],
      ['soon', 'body must be a JSON object'],
    ];
    for (const [body, message] of cases) {
      expect(await send(api, 'POST', '/api/test_clock', test, body)).toMatchObject({ status: 400, body: { error: 'Bad Request', message } });
    }
    expect(api.clock.state().now).toBe('2026-01-01T00:00:00.000Z');
  });
});

// A host with per-seller test clocks (the server) passes the seller's offset with the request: test mode's
// timestamps follow it, live mode's never.
describe('testClockOffsetMs', () => {
  it('moves test timestamps and leaves live ones', async () => {
    const sellerId = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
    let offset = 0;
    const door: TestClockDoor = {
      read: async () => ({ now: Date.parse('2026-01-01T00:00:00Z') + offset, frozen: false }),
      set: async (_, target) => void (offset = target - Date.parse('2026-01-01T00:00:00Z')),
      advance: async (_, ms) => void (offset += ms),
    };
    const keys = new MemoryKeyRegistry();
    await keys.add(live, { sellerId, customerLimit: 10 });
    await keys.add(test, { sellerId, customerLimit: 10 });
    const handle = createApiHandler({
      service: createCustomerService({ store: new MemoryCustomerStore(), clock: () => '2026-01-01T00:00:00.000Z' }),
      testClock: door,
      // As the server does it: the offset read once per test-mode request.
      lookupKey: async (hash) => {
        const found = await keys.lookup(hash);
        return found && found.mode === 'test' ? { ...found, testClockOffsetMs: offset } : found;
      },
    });
    const call = async (method: string, path: string, key: string, body?: unknown) => {
      const h = new Headers({ 'X-API-Key': key, 'Content-Type': 'application/json' });
      return handle({ method, path, header: (name) => h.get(name), body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)) });
    };
    expect((await call('POST', '/api/test_clock', test, { advance_ms: 2 * DAY })).body).toEqual({ now: '2026-01-03T00:00:00.000Z', frozen: false });
    expect((await call('POST', '/api/customers', test, ada)).body).toMatchObject({ created_at: '2026-01-03T00:00:00.000Z' });
    expect((await call('POST', '/api/customers', live, ada)).body).toMatchObject({ created_at: '2026-01-01T00:00:00.000Z' });
  });
});
