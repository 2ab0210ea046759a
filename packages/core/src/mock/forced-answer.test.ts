import { generateApiKey } from '../auth/api-key.js';
import type { ApiRequest, ApiResponse } from '../http/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forcedAnswer, givenAnswer, NETWORK_ERROR, type MockAnswer } from './forced-answer.js';
import { LATEST_API_VERSION } from '../versions/api-version.js';

const key = generateApiKey();
const request = (headers: Record<string, string> = {}, body?: unknown): ApiRequest => {
  const all = new Headers({ 'X-API-Key': key, 'Content-Type': 'application/json', ...headers });
  return {
    method: 'POST',
    path: '/api/customers',
    header: (name) => all.get(name),
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  };
};
const bodyOf = (answer: MockAnswer | undefined) => (answer as ApiResponse).body as { message: string };
const options = { lookupKey: async () => ({ sellerId: 's1', customerLimit: 7 }), customerLimit: 100 };

describe('forcedAnswer', () => {
  it('leaves the answer to the caller when only a delay was forced', async () => {
    expect(await forcedAnswer({ delayMs: 0 }, request(), options)).toBeUndefined();
  });

  it('fails the connection for a network error', async () => {
    expect(await forcedAnswer({ networkError: true }, request(), options)).toBe(NETWORK_ERROR);
  });

  it("quotes the caller's plan limit in a 403, or the mock's when the key is unknown", async () => {
    const known = await forcedAnswer({ status: 403 }, request(), options);
    expect(bodyOf(known).message).toBe('Customer limit reached; your subscription plan allows 7 customers');
    const unknown = await forcedAnswer({ status: 403 }, request(), { ...options, lookupKey: async () => undefined });
    expect(bodyOf(unknown).message).toBe('Customer limit reached; your subscription plan allows 100 customers');
  });

  it('echoes the request id and names the email of the body in a 409', async () => {
    const answer = await forcedAnswer({ status: 409 }, request({ 'X-Request-Id': 'mine' }, { email: 'a@b.de' }), options);
    expect((answer as ApiResponse).headers['X-Request-Id']).toBe('mine');
    expect(bodyOf(answer)).toEqual({ error: 'Conflict', message: 'A customer with email a@b.de already exists' });
  });

  it('answers a forced success with its body and the headers the server sends', async () => {
    const answer = (await forcedAnswer({ status: 201, body: { id: 'c1' }, headers: { 'X-Extra': '1' } }, request(), options)) as ApiResponse;
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: 'c1' });
    expect(answer.headers).toMatchObject({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Location: '/api/customers/c1', 'X-Extra': '1' });
    const deleted = (await forcedAnswer({ status: 204 }, request({ 'X-Request-Id': 'r9' }), options)) as ApiResponse;
    expect(deleted).toEqual({
      status: 204,
      headers: { 'Cache-Control': 'no-store', 'X-Request-Id': 'r9', 'Customers-Version': LATEST_API_VERSION },
    });
  });

  describe('timing and what is read', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('answers only after the forced delay, and at once without one', async () => {
      vi.useFakeTimers();
      let settled = false;
      const late = forcedAnswer({ status: 500, delayMs: 1000 }, request(), options).then((answer) => {
        settled = true;
        return answer;
      });
      await vi.advanceTimersByTimeAsync(999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(((await late) as ApiResponse).status).toBe(500);
      // No timer at all without a delay: it settles while fake time stands still.
      expect(((await forcedAnswer({ status: 500 }, request(), options)) as ApiResponse).status).toBe(500);
    });

    it('looks the key up only for a 403, the one answer that quotes the plan limit', async () => {
      const lookupKey = vi.fn(options.lookupKey);
      for (const status of [401, 404, 409, 500, 503] as const) await forcedAnswer({ status }, request(), { ...options, lookupKey });
      expect(lookupKey).not.toHaveBeenCalled();
      await forcedAnswer({ status: 403 }, request(), { ...options, lookupKey });
      expect(lookupKey).toHaveBeenCalledTimes(1);
    });

    it('names no email in a 409 when the body has none that is a string', async () => {
      const none = { error: 'Conflict', message: 'A customer with email (none in the request body) already exists' };
      expect(bodyOf(await forcedAnswer({ status: 409 }, request({}, { email: 42 }), options))).toEqual(none);
      expect(bodyOf(await forcedAnswer({ status: 409 }, request(), options))).toEqual(none);
      const broken = { ...request(), body: new TextEncoder().encode('{"email":') };
      expect(bodyOf(await forcedAnswer({ status: 409 }, broken, options))).toEqual(none);
    });
  });
});

describe('givenAnswer', () => {
  const noHeaders = () => null;

  it('names the created customer in Location only for a 201 whose body has a string id', () => {
    expect(givenAnswer({ status: 201, body: { id: 'c1' } }, noHeaders).headers.Location).toBe('/api/customers/c1');
    expect(givenAnswer({ status: 200, body: { id: 'c1' } }, noHeaders).headers).not.toHaveProperty('Location');
    expect(givenAnswer({ status: 201, body: { id: 42 } }, noHeaders).headers).not.toHaveProperty('Location');
    expect(givenAnswer({ status: 201, body: null }, noHeaders).headers).not.toHaveProperty('Location');
  });

  it('has no body property at all without a body', () => {
    const answer = givenAnswer({ status: 204 }, noHeaders);
    expect(answer).not.toHaveProperty('body');
    expect(answer.headers).not.toHaveProperty('Content-Type');
  });
});
