import { authenticate, type KeyLookup } from '../auth/authenticate.js';
import type { CustomerService } from '../customers/customer-service.js';
import { errors, toApiError } from '../errors/registry.js';
import { isApiError } from '../errors/api-error.js';
import { BODY_LIMIT_BYTES, readJsonBody } from './read-json-body.js';
import { resolveRequestId } from './request-id.js';
import { matchRoute } from './routes.js';
import type { ApiRequest, ApiResponse } from './types.js';

export interface ApiHandlerOptions {
  service: CustomerService;
  lookupKey: KeyLookup;
  /** Defaults to 64 KiB, as openapi.yaml fixes it. */
  bodyLimitBytes?: number;
  /** Called with any fault that is not an ApiError (the response is then a generic 500). */
  onUnexpectedError?: (error: unknown, requestId: string) => void;
  newRequestId?: () => string;
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/**
 * The whole API as one framework-free function from {@link ApiRequest} to {@link ApiResponse}: routing,
 * request ids, authentication, body rules (415, 413, 400), the business rules and error mapping. The MSW
 * handlers are a thin adapter around it; any other host can be too. No input makes it throw: every
 * failure becomes an `{ error, message }` response.
 *
 * @example
 * const handle = createApiHandler({ service, lookupKey: keys.lookup });
 * const response = await handle({ method: 'GET', path: '/api/customers/42', header, body: null });
 */
export function createApiHandler(options: ApiHandlerOptions): (request: ApiRequest) => Promise<ApiResponse> {
  const { service, lookupKey } = options;
  const limit = options.bodyLimitBytes ?? BODY_LIMIT_BYTES;

  async function dispatch(request: ApiRequest, requestId: string): Promise<ApiResponse> {
    const route = matchRoute(request.path);
    if (!route) throw errors.routeNotFound(request.path);
    const seller = await authenticate(request.header, lookupKey);
    const method = request.method.toUpperCase();
    const ok = (status: number, body: unknown, extra: Record<string, string> = {}): ApiResponse => ({
      status,
      headers: { ...JSON_HEADERS, 'X-Request-Id': requestId, ...extra },
      body,
    });

    if (route.name === 'collection' && method === 'POST') {
      const body = readJsonBody(request.header, request.body, limit);
      const { customer } = await service.create(seller, body, {
        idempotencyKey: request.header('idempotency-key') ?? undefined,
      });
      return ok(201, customer, { Location: `/api/customers/${customer.id}` });
    }
    if (route.name === 'item') {
      if (method === 'GET') return ok(200, await service.get(seller, route.id));
      if (method === 'PATCH') {
        const body = readJsonBody(request.header, request.body, limit);
        return ok(200, await service.update(seller, route.id, body));
      }
      if (method === 'DELETE') {
        await service.delete(seller, route.id);
        return { status: 204, headers: { 'X-Request-Id': requestId } };
      }
    }
    throw errors.methodNotAllowed(method, route.allowed);
  }

  return async (request) => {
    const requestId = resolveRequestId(request.header, options.newRequestId);
    try {
      return await dispatch(request, requestId);
    } catch (caught) {
      if (!isApiError(caught)) options.onUnexpectedError?.(caught, requestId);
      const error = toApiError(caught);
      return {
        status: error.status,
        headers: { ...JSON_HEADERS, 'X-Request-Id': requestId, ...error.headers },
        body: error.toBody(),
      };
    }
  };
}
