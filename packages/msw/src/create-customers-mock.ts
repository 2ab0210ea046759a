import { createMockApi, NETWORK_ERROR, type MockApi, type MockApiOptions } from '@customers-api/core';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { pathBelow, toApiRequest } from './adapt-request.js';
import { toHttpResponse } from './adapt-response.js';
import { mountPoint } from './base-url.js';

export interface CustomersMockOptions extends Omit<MockApiOptions, 'defaultSellerId' | 'onUnexpectedError'> {
  /** Where the API lives; default `'*'` (any origin). Example: `'http://127.0.0.1:3000'`. */
  baseUrl?: string;
  /** Called with any fault that is not an API error (answered 500); defaults to `console.error`. */
  onUnexpectedError?: (error: unknown, requestId: string) => void;
}

export interface CustomersMock extends Omit<MockApi, 'answer'> {
  /** Pass to `setupServer(...mock.handlers)` or `setupWorker(...mock.handlers)`. */
  handlers: HttpHandler[];
}

/**
 * Stateful MSW handlers for the Customer Management API. They run core's rules over an in-memory store, so
 * they answer exactly as the reference server does: validation from openapi.yaml, defaults, 404 tenancy,
 * 409 duplicate emails, 403 plan limit, idempotent creates, 401/413/415 and X-Request-Id.
 *
 * @example
 * const mock = createCustomersMock({
 *   baseUrl: 'http://127.0.0.1:3000',
 *   seed: [{ customers: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }] }],
 * });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * const [ada] = await mock.ready;
 * mock.nextResponse('getCustomer', { status: 503, headers: { 'Retry-After': '1' } });
 * await fetch(`http://127.0.0.1:3000/api/customers/${ada.id}`, {
 *   headers: { 'X-API-Key': mock.defaultSeller!.apiKey }, // any sk_live_ + 48 alphanumerics works
 * }); // 503, then 200 on the next try
 */
export function createCustomersMock(options: CustomersMockOptions = {}): CustomersMock {
  const { baseUrl, ...rest } = options;
  const { answer, ...api } = createMockApi({
    ...rest,
    onUnexpectedError:
      options.onUnexpectedError ??
      ((error, requestId) => console.error(`[customers-api/msw] ${requestId}`, error)),
  });

  const mount = mountPoint(baseUrl ?? '*');
  const resolver = async ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    const reply = await answer(request.method, pathBelow(url, mount.basePath), () =>
      toApiRequest(request, mount.basePath, url),
    );
    return reply === NETWORK_ERROR ? HttpResponse.error() : toHttpResponse(reply);
  };

  return { ...api, handlers: [http.all(mount.pattern, resolver)] };
}
