import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BASE_URL, KEY, json, scriptedClient } from '../../test/helpers/fixtures';
import { CustomersClient } from '../client';
import { BadRequestError, PermissionDeniedError } from '../core/errors';

// client.testClock: the requests it sends and how answers come back, through a scripted fetch. Its rules are the
// API's (core's tests, the contract suite and the server's test-clock delivery test).

let sent: Request[];
let answers: Response[];
let client: CustomersClient;

beforeEach(() => {
  ({ client, sent, answers } = scriptedClient((fetch) => new CustomersClient({ apiKey: KEY, baseUrl: BASE_URL, fetch, maxRetries: 0 })));
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => vi.restoreAllMocks());

describe('client.testClock', () => {
  it('reads the clock with GET /api/test_clock', async () => {
    answers.push(json({ now: '2026-12-01T09:30:00.000Z', frozen: false }));
    expect(await client.testClock.retrieve()).toEqual({ now: '2026-12-01T09:30:00.000Z', frozen: false });
    expect([sent[0]!.method, sent[0]!.url]).toEqual(['GET', `${BASE_URL}/api/test_clock`]);
  });

  it('moves it with POST /api/test_clock and the body as given', async () => {
    answers.push(json({ now: '2026-12-04T09:30:00.000Z', frozen: false }), json({ now: '2027-01-01T00:00:00.000Z', frozen: false }));
    await client.testClock.advance({ advance_ms: 259_200_000 });
    await client.testClock.advance({ now: '2027-01-01T00:00:00Z' });
    expect(sent.map((request) => [request.method, request.url, request.headers.get('content-type')])).toEqual([
      ['POST', `${BASE_URL}/api/test_clock`, 'application/json'],
      ['POST', `${BASE_URL}/api/test_clock`, 'application/json'],
    ]);
    expect(await Promise.all(sent.map((request) => request.json()))).toEqual([{ advance_ms: 259_200_000 }, { now: '2027-01-01T00:00:00Z' }]);
  });

  it('throws typed errors: a live key, and going back', async () => {
    answers.push(
      json({ error: 'Forbidden', message: 'getTestClock needs a test key (sk_test_ or rk_test_); this key is live' }, 403),
      json({ error: 'Bad Request', message: 'now: the test clock cannot go back' }, 400),
    );
    await expect(client.testClock.retrieve()).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(client.testClock.advance({ now: '2020-01-01T00:00:00Z' })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('takes exactly one of now and advance_ms (type-checked)', () => {
    // @ts-expect-error both at once
    const both: Parameters<typeof client.testClock.advance>[0] = { now: '2027-01-01T00:00:00Z', advance_ms: 1 };
    // @ts-expect-error neither
    const neither: Parameters<typeof client.testClock.advance>[0] = {};
    expect([both, neither]).toHaveLength(2);
  });
});
