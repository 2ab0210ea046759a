import { setImmediate as realSetImmediate } from 'node:timers';

/** A well-formed key (tests never reach a real server). */
export const KEY = `sk_live_${'A1b2'.repeat(12)}`;
export const BASE_URL = 'http://127.0.0.1:3000';
export const ID = '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61';

export const ADA = {
  id: ID,
  seller_id: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  company_name: null,
  legal_entity: null,
  language: 'de',
  status: 'active',
  address_data: null,
  postal_redirect_address: null,
  source: 'api',
  created_at: '2026-11-25T09:30:00.000Z',
  updated_at: '2026-11-25T09:30:00.000Z',
  livemode: true,
} as const;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_test', ...headers },
  });
}

export function apiError(status: number, error: string, message: string, headers: Record<string, string> = {}): Response {
  return json({ error, message }, status, headers);
}

/**
 * Yields to the real event loop (setImmediate is not faked in these tests) until `condition` holds,
 * without moving fake time. Fails after 1000 turns so a broken expectation cannot hang.
 */
export async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (condition()) return;
    await new Promise((resolve) => realSetImmediate(resolve));
  }
  throw new Error('condition never became true');
}

/** Lets pending work run without moving fake time. */
export async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => realSetImmediate(resolve));
}

export interface Recorded {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
}

/** A scripted `fetch`: answers each call with the next entry (a Response, an Error to throw, or a function). */
export function scriptedFetch(script: Array<Response | Error | ((init: RequestInit) => Promise<Response>)>) {
  const calls: Recorded[] = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const body =
      init.body === undefined || init.body === null
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : new TextDecoder().decode(init.body as ArrayBuffer);
    calls.push({ url: String(input), method: init.method ?? 'GET', headers: new Headers(init.headers), body });
    const next = script[Math.min(calls.length - 1, script.length - 1)];
    if (next instanceof Error) throw next;
    if (typeof next === 'function') return next(init);
    return next!.clone();
  };
  return { fetch, calls };
}

/**
 * A client (made by `make` with the fetch given) whose requests are kept in `sent` and answered from `answers`,
 * first in first out; a request with no answer left gets a 500. Push answers before or between calls. The client is
 * made by the caller so this file imports no SDK source (the tests of dist/ use it too).
 */
export function scriptedClient<C>(make: (fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>) => C) {
  const sent: Request[] = [];
  const answers: Response[] = [];
  const client = make(async (input, init) => {
    sent.push(new Request(input, init));
    return answers.shift() ?? json({ error: 'Internal Server Error', message: 'no answer scripted' }, 500);
  });
  return { client, sent, answers };
}

/** A fetch that never answers; it rejects like the real one when its signal aborts. */
export function hangingFetch() {
  let count = 0;
  const fetch = (_input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    count++;
    return new Promise((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')));
    });
  };
  return { fetch, calls: () => count };
}
