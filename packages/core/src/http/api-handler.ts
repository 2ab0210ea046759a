import { authenticate, type KeyLookup } from '../auth/authenticate.js';
import type { CustomerService } from '../customers/customer-service.js';
import type { WebhookService } from '../webhooks/webhook-service.js';
import type { TestDataStore } from '../tenancy/test-data.js';
import type { TestClockDoor } from '../tenancy/test-clock.js';
import { errors, toApiError } from '../errors/registry.js';
import { isApiError } from '../errors/api-error.js';
import { API_RESPONSE_HEADERS, runOperation } from './operations.js';
import { resolveRequestId } from './request-id.js';
import { routeRequest } from './router.js';
import { checkRateLimit } from '../rate-limit/check-rate-limit.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { limitFailedAuthentication } from '../rate-limit/failed-authentication.js';
import type { ApiRequest, ApiResponse } from './types.js';
import { API_VERSION_HEADER, resolveApiVersion, type ApiVersionResolution } from '../versions/api-version.js';
import { API_VERSIONING, pinnedVersion, type ApiVersioning } from '../versions/version-change.js';

export interface ApiHandlerOptions {
  service: CustomerService;
  /** The webhook-endpoint and event operations; without it they answer 404 like unknown routes. */
  webhooks?: WebhookService;
  /** The one-call wipe of test data; without it, deleteTestData answers 404 like an unknown route. */
  testData?: TestDataStore;
  /** The test clock's door; without it, getTestClock and advanceTestClock answer 404 like unknown routes. */
  testClock?: TestClockDoor;
  lookupKey: KeyLookup;
  /** Computes core's `hashApiKey`; a server may pass a synchronous SHA-256. */
  hashKey?: (key: string) => string | Promise<string>;
  /** Defaults to 64 KiB, as openapi.yaml fixes it. */
  bodyLimitBytes?: number;
  /** Called with any fault that is not an ApiError (the response is then a generic 500). */
  onUnexpectedError?: (error: unknown, requestId: string) => void;
  newRequestId?: () => string;
  /** Limits each seller's requests after authentication (429 + `Retry-After`); none when omitted. */
  rateLimiter?: RateLimiter;
  /**
   * Counts failed authentications per client address (`ApiRequest.clientAddress`, see
   * `limitFailedAuthentication`): past the budget a wrong key is 429; none when omitted.
   */
  failedAuthLimiter?: RateLimiter;
  /** The clock a version's sunset is compared with; the system clock when omitted. */
  now?: () => Date;
  /** The versions answered and the changes between them; openapi.yaml's (`API_VERSIONING`) when omitted. */
  versioning?: ApiVersioning;
}

/**
 * The whole API as one framework-free function from {@link ApiRequest} to {@link ApiResponse}: routing from
 * openapi.yaml's paths (404, 405 + Allow, HEAD), request ids, the `Customers-Version` header, authentication, rate limits, the operation table (body rules,
 * business rules, success answers) and error mapping. MSW and the HTTP mock host it whole; the server hosts
 * the operations as Fastify routes and asks it about everything else. No input makes it throw: every failure
 * becomes an `{ error, message }` response.
 *
 * @example
 * const handle = createApiHandler({ service, lookupKey: keys.lookup });
 * const response = await handle({ method: 'GET', path: '/api/customers/42', header, body: null });
 */
export function createApiHandler(options: ApiHandlerOptions): (request: ApiRequest) => Promise<ApiResponse> {
  const { service, lookupKey, hashKey } = options;
  const versioning = options.versioning ?? API_VERSIONING;
  /** A deprecated version's headers; the latest compares one string. */
  const deprecation = (version: string) => (version === versioning.latest ? undefined : versioning.headersFor(version));

  /** The rate-limit headers of the request being answered, for its answer whatever it is. */
  async function dispatch(
    request: ApiRequest,
    limitHeaders: Record<string, string>,
    version: ApiVersionResolution,
  ): Promise<ApiResponse> {
    const route = routeRequest(request.method, request.path);
    if (route.kind === 'not_found') throw errors.routeNotFound(request.path);
    // Part of the request's syntax: checked before the key, as openapi.yaml's order of checks says.
    if (version.error) throw version.error;
    let seller;
    try {
      seller = await authenticate(request.header, lookupKey, hashKey);
    } catch (failure) {
      const limiter = options.failedAuthLimiter;
      throw limiter && request.clientAddress !== undefined ? await limitFailedAuthentication(limiter, request.clientAddress, failure) : failure;
    }
    // Without the header, the seller's pinned version (known only now): its answers, errors included, carry it.
    const pinned = pinnedVersion(versioning, request.header, seller, options.now);
    if (pinned !== undefined) version.version = pinned;
    if (options.rateLimiter) Object.assign(limitHeaders, await checkRateLimit(options.rateLimiter, seller));
    if (route.kind === 'method_not_allowed') throw errors.methodNotAllowed(request.method.toUpperCase(), route.allowed);
    const result = await runOperation(route.operation, {
      service,
      seller,
      params: route.params,
      header: request.header,
      query: request.query ?? '',
      body: request.body,
      ...(options.bodyLimitBytes === undefined ? {} : { bodyLimitBytes: options.bodyLimitBytes }),
      changes: versioning.changesFor(version.version),
      apiVersion: version.version,
      webhooks: options.webhooks,
      testData: options.testData,
      testClock: options.testClock,
    });
    return result;
  }

  async function answer(request: ApiRequest, requestId: string): Promise<ApiResponse> {
    const limitHeaders: Record<string, string> = {};
    const version = resolveApiVersion(request.header, options.now, versioning.versions);
    try {
      const result = await dispatch(request, limitHeaders, version);
      return {
        ...result,
        headers: {
          ...result.headers,
          ...limitHeaders,
          ...deprecation(version.version),
          'X-Request-Id': requestId,
          [API_VERSION_HEADER]: version.version,
        },
      };
    } catch (caught) {
      if (!isApiError(caught)) options.onUnexpectedError?.(caught, requestId);
      const error = toApiError(caught);
      return {
        status: error.status,
        headers: {
          ...errorHeaders(error.headers),
          ...limitHeaders,
          ...deprecation(version.version),
          'X-Request-Id': requestId,
          [API_VERSION_HEADER]: version.version,
        },
        body: error.toBody(),
      };
    }
  }

  return async (request) => {
    const response = await answer(request, resolveRequestId(request.header, options.newRequestId));
    // HEAD: the headers GET would send, never a body (errors included).
    if (request.method.toUpperCase() === 'HEAD') delete response.body;
    return response;
  };
}

/**
 * The headers of an error answer: JSON, never cached, plus what the status calls for (WWW-Authenticate, Allow).
 *
 * @example
 * errorHeaders(errors.methodNotAllowed('PUT', ['POST']).headers); // { 'Content-Type': ..., Allow: 'POST', ... }
 */
export function errorHeaders(statusHeaders: Readonly<Record<string, string>>): Record<string, string> {
  return { 'Content-Type': 'application/json', ...API_RESPONSE_HEADERS, ...statusHeaders };
}
