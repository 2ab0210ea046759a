import { generateApiKey, type ApiRequest } from '@customers-api/core';
import { describe, expect, it } from 'vitest';
import { forcedAnswer } from './forced-answer.js';

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
const options = { lookupKey: async () => ({ sellerId: 's1', customerLimit: 7 }), customerLimit: 100 };

describe('forcedAnswer', () => {
  it('leaves the answer to the caller when only a delay was forced', async () => {
    expect(await forcedAnswer({ delayMs: 0 }, request(), options)).toBeUndefined();
  });

  it('fails the connection for a network error', async () => {
    const answer = await forcedAnswer({ networkError: true }, request(), options);
    expect(answer?.type).toBe('error');
  });

  it("quotes the caller's plan limit in a 403, or the mock's when the key is unknown", async () => {
    const known = await forcedAnswer({ status: 403 }, request(), options);
    expect((await known!.json()).message).toBe('Customer limit reached; your subscription plan allows 7 customers');
    const unknown = await forcedAnswer({ status: 403 }, request(), { ...options, lookupKey: async () => undefined });
    expect((await unknown!.json()).message).toBe('Customer limit reached; your subscription plan allows 100 customers');
  });

  it('echoes the request id and names the email of the body in a 409', async () => {
    const answer = await forcedAnswer({ status: 409 }, request({ 'X-Request-Id': 'mine' }, { email: 'a@b.de' }), options);
    expect(answer!.headers.get('x-request-id')).toBe('mine');
    expect(await answer!.json()).toEqual({ error: 'Conflict', message: 'A customer with email a@b.de already exists' });
  });
});
