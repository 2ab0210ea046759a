import { generateApiKey } from '../auth/api-key.js';
import type { ApiRequest, ApiResponse } from '../http/types.js';
import { describe, expect, it } from 'vitest';
import { forcedAnswer, NETWORK_ERROR, type MockAnswer } from './forced-answer.js';

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
    expect(deleted).toEqual({ status: 204, headers: { 'Cache-Control': 'no-store', 'X-Request-Id': 'r9' } });
  });
});
