import { describe, expect, it } from 'vitest';
import { toHttpResponse } from './adapt-response.js';

describe('toHttpResponse', () => {
  it('serialises the JSON body and keeps status and headers', async () => {
    const response = toHttpResponse({
      status: 404,
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'r1' },
      body: { error: 'Not Found', message: 'Customer not found' },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toBe('r1');
    expect(await response.json()).toEqual({ error: 'Not Found', message: 'Customer not found' });
  });

  it('sends no body at all for 204', async () => {
    const response = toHttpResponse({ status: 204, headers: { 'X-Request-Id': 'r2' } });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });
});
