import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, apiError, ID, json, KEY, scriptedFetch } from '../test/helpers/fixtures';
import { CustomersClient } from './client';
import type { LogEvent } from './core/logger';

afterEach(() => vi.restoreAllMocks());

describe('logger', () => {
  it('reports request, response, retry and error events and never the key', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const events: LogEvent[] = [];
    const { fetch } = scriptedFetch([
      new TypeError('fetch failed'),
      apiError(503, 'Service Unavailable', 'later', { 'x-request-id': 'req_a' }),
      json(ADA, 200, { 'x-request-id': 'req_b', 'set-cookie': 'session=abc' }),
    ]);
    const bearer = `Bearer ${KEY}`;
    const client = new CustomersClient({
      apiKey: KEY,
      fetch,
      defaultHeaders: { Authorization: bearer, Cookie: 'a=b' },
      logger: (e) => events.push(e),
    });
    await client.customers.get(ID);

    expect(events.map((e) => `${e.type}:${e.attempt}`)).toEqual([
      'request:1',
      'error:1',
      'retry:1',
      'request:2',
      'response:2',
      'retry:2',
      'request:3',
      'response:3',
    ]);
    const request = events[0] as Extract<LogEvent, { type: 'request' }>;
    expect(request).toMatchObject({ method: 'GET', url: `http://127.0.0.1:3000/api/customers/${ID}` });
    expect(request.headers['x-api-key']).toBe('[redacted]');
    expect(request.headers.authorization).toBe('[redacted]');
    expect(request.headers.cookie).toBe('[redacted]');
    expect(request.headers['user-agent']).toMatch(/^customers-api-sdk\//);
    const last = events.at(-1) as Extract<LogEvent, { type: 'response' }>;
    expect(last).toMatchObject({ status: 200, requestId: 'req_b' });
    expect(last.headers['set-cookie']).toBe('[redacted]');
    expect(events[2]).toMatchObject({ type: 'retry', reason: 'ConnectionError', delayMs: 0 });

    const everything = JSON.stringify(events, (_k, v: unknown) => (v instanceof Error ? { ...v, message: v.message, stack: v.stack } : v));
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(KEY.slice(8));
  });

  it('keeps going when the logger throws', async () => {
    const { fetch } = scriptedFetch([json(ADA)]);
    const client = new CustomersClient({
      apiKey: KEY,
      fetch,
      logger: () => {
        throw new Error('broken logger');
      },
    });
    await expect(client.customers.get(ID)).resolves.toEqual(ADA);
  });
});
