import { describe, expect, it } from 'vitest';
import { type ForcedResponse, ForcedResponses } from './forced-responses.js';
import type { OperationId } from '../http/operations.js';

describe('ForcedResponses', () => {
  it('hands out each forced response `times` times, in order, per operation', () => {
    const queue = new ForcedResponses();
    queue.push('createCustomer', { status: 503, times: 2 });
    queue.push('createCustomer', { status: 500 });
    queue.push('getCustomer', { networkError: true });
    expect(queue.take('createCustomer')?.status).toBe(503);
    expect(queue.take('createCustomer')?.status).toBe(503);
    expect(queue.take('createCustomer')?.status).toBe(500);
    expect(queue.take('createCustomer')).toBeUndefined();
    expect(queue.take('deleteCustomer')).toBeUndefined();
    expect(queue.take('getCustomer')).toEqual({ networkError: true });
  });

  it('counts a large `times` instead of copying the response', () => {
    const queue = new ForcedResponses();
    queue.push('getCustomer', { status: 500, times: 1e9 });
    queue.push('getCustomer', { status: 404 });
    expect(queue.take('getCustomer')?.status).toBe(500);
    expect(queue.take('getCustomer')?.status).toBe(500);
  });

  it('forgets everything on clear', () => {
    const queue = new ForcedResponses();
    queue.push('updateCustomer', { delayMs: 10, times: 3 });
    queue.clear();
    expect(queue.take('updateCustomer')).toBeUndefined();
  });

  it('rejects what cannot be forced when it is queued', () => {
    const queue = new ForcedResponses();
    const cases: Array<[string, ForcedResponse, RegExp]> = [
      ['listSellers', { status: 500 }, /unknown operation; use one of listCustomers, createCustomer, getCustomer, updateCustomer, deleteCustomer, listWebhookEndpoints, createWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookEndpointSecret, replayWebhookEvents, listEvents, getEvent, deleteTestData, getTestClock, advanceTestClock$/],
      ['createCustomer', { status: 200, body: {} }, /status 200 cannot be forced; use one of 201, 400/],
      ['createCustomer', { status: 201 }, /status 201 needs the body/],
      ['createCustomer', { status: 500, body: {} }, /a body goes only with the success status 201/],
      ['deleteCustomer', { status: 204, body: {} }, /success status 204, which has none/],
      ['createCustomer', { status: 500, networkError: true }, /either status or networkError/],
      ['createCustomer', {}, /give a status, networkError: true or delayMs/],
      ['createCustomer', { delayMs: -1 }, /delayMs must be/],
      ['createCustomer', { delayMs: 2 ** 31 }, /delayMs must be a number of milliseconds from 0 to 2147483647/],
      ['createCustomer', { status: 500, times: 0 }, /times must be/],
      ['createCustomer', { status: 500, times: 1.5 }, /times must be/],
    ];
    for (const [operation, forced, message] of cases) {
      expect(() => queue.push(operation as OperationId, forced)).toThrow(message);
    }
    expect(queue.take('createCustomer')).toBeUndefined();
  });

  it("accepts each operation's own success status, with its body (none for 204)", () => {
    const queue = new ForcedResponses();
    queue.push('getCustomer', { status: 200, body: { id: 'x' } });
    queue.push('createCustomer', { status: 201, body: { id: 'x' } });
    queue.push('deleteCustomer', { status: 204 });
    expect(queue.take('deleteCustomer')).toEqual({ status: 204 });
  });

  it('names the call and every status it could force instead', () => {
    expect(() => new ForcedResponses().push('createCustomer', { status: 200, body: {} })).toThrow(
      new TypeError(
        "nextResponse('createCustomer', ...): status 200 cannot be forced; use one of 201, 400, 401, 403, 404, 409, 413, 415, 500, 408, 429, 502, 503, 504",
      ),
    );
  });

  it('accepts the bounds: a delay of 0 and of 2147483647 ms, and times: 1', () => {
    const queue = new ForcedResponses();
    queue.push('listCustomers', { delayMs: 0 });
    queue.push('listCustomers', { delayMs: 2 ** 31 - 1 });
    queue.push('listCustomers', { status: 503, times: 1 });
    expect([queue.take('listCustomers'), queue.take('listCustomers'), queue.take('listCustomers'), queue.take('listCustomers')]).toEqual([
      { delayMs: 0 },
      { delayMs: 2 ** 31 - 1 },
      { status: 503, times: 1 },
      undefined,
    ]);
  });
});

describe('checkForced wording', () => {
  it('says the success status has no body only of a 204', () => {
    const queue = new ForcedResponses();
    expect(() => queue.push('getCustomer', { status: 404, body: {} })).toThrow(/a body goes only with the success status 200$/);
  });
});
