import { validateHeaderName, validateHeaderValue } from 'node:http';
import {
  ApiError,
  checkForced,
  errors,
  apiKeyKindFor,
  generateApiKey,
  parseApiKey,
  OPERATION_IDS,
  readJsonBody,
  type ApiRequest,
  type ApiResponse,
  type ForcedResponse,
  type JournalFilter,
  type MockApi,
  type OperationId,
} from '@customers-api/core';
import { errorAnswer } from './error-answer.js';
import { apiKeyAt, customerLimitAt, EntryError, instantAt, keyKindAt, keyLifecycleAt, objectAt, sellerIdAt, type Json } from './entries.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';
import { webhookEntryAt } from './webhook-entry.js';

/** What the control API acts on: the mock engine and its webhook deliveries. */
export interface ControlContext {
  api: MockApi;
  webhooks: WebhookDispatcher;
}

/** Where the control API lives: never under `/api`, so it cannot shadow an API path. */
export const CONTROL_PREFIX = '/__mock';

const NEXT_RESPONSE_ENTRIES = ['operation', 'status', 'body', 'headers', 'message', 'delayMs', 'networkError', 'times'];

/** The journal filters of `GET /__mock/requests`; an unknown or repeated parameter or a bad value is a 400 naming it. */
function journalFilterOf(query: string | undefined): JournalFilter {
  const filter: JournalFilter = {};
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(query ?? '')) {
    if (seen.has(name)) throw new EntryError(`query.${name}`, 'must be given at most once');
    seen.add(name);
    if (name === 'operation') {
      if (!OPERATION_IDS.includes(value as OperationId)) throw new EntryError('query.operation', `must be one of ${OPERATION_IDS.join(', ')}`);
      filter.operation = value as OperationId;
    } else if (name === 'method') {
      if (!/^[A-Za-z]+$/.test(value)) throw new EntryError('query.method', 'must be an HTTP method such as POST');
      filter.method = value;
    } else if (name === 'status') {
      if (!/^[1-5]\d\d$/.test(value)) throw new EntryError('query.status', 'must be an HTTP status from 100 to 599');
      filter.status = Number(value);
    } else if (name === 'seller') {
      filter.seller = sellerIdAt(value, 'query.seller');
    } else if (name === 'limit') {
      if (!/^[1-9]\d{0,8}$/.test(value)) throw new EntryError('query.limit', 'must be a whole number, 1 or more');
      filter.limit = Number(value);
    } else {
      throw new EntryError(`query.${name}`, 'is not allowed; use operation, method, status, seller, limit');
    }
  }
  return filter;
}

/** `POST /__mock/clock`: set and freeze (`now`), or move forward (`advance_ms`); due work runs first. */
async function changeClock({ api, webhooks }: ControlContext, body: Json): Promise<void> {
  const { now, advance_ms: advance } = objectAt(body, 'body', ['now', 'advance_ms']);
  if ((now === undefined) === (advance === undefined)) throw new EntryError('body', 'give exactly one of now (an ISO 8601 instant) and advance_ms');
  // Deliveries under way end first, so that the retries they lead to are scheduled before the clock moves.
  await webhooks.settle();
  if (advance !== undefined) {
    if (!(Number.isSafeInteger(advance) && (advance as number) >= 0)) throw new EntryError('body.advance_ms', 'must be a whole number of milliseconds, 0 or more');
    await api.clock.advance(advance as number);
    return;
  }
  const instant = instantAt(now, 'body.now')!;
  try {
    await api.clock.set(instant);
  } catch (error) {
    if (error instanceof RangeError) throw new EntryError('body.now', error.message);
    throw error;
  }
}

const json = (status: number, body?: unknown): ApiResponse => ({ status, headers: {}, ...(body !== undefined && { body }) });

/** The JSON object of a control request; an empty body is `{}` (every control body is optional or small). */
function bodyOf(request: ApiRequest): Json {
  return request.body && request.body.byteLength > 0 ? readJsonBody(request.header, request.body) : {};
}

function forcedOf(body: Json): { operation: OperationId; forced: ForcedResponse } {
  const { operation, headers, ...rest } = objectAt(body, 'body', NEXT_RESPONSE_ENTRIES);
  if (typeof operation !== 'string' || !OPERATION_IDS.includes(operation as OperationId)) {
    throw new EntryError('body.operation', `must be one of ${OPERATION_IDS.join(', ')}`);
  }
  if (headers !== undefined && !(typeof headers === 'object' && headers !== null && !Array.isArray(headers) && Object.values(headers).every((v) => typeof v === 'string'))) {
    throw new EntryError('body.headers', 'must be an object of header names to string values');
  }
  for (const [name, value] of Object.entries(headers ?? {})) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      throw new EntryError(`body.headers[${JSON.stringify(name)}]`, 'is not a valid HTTP header name and value');
    }
  }
  for (const [name, type] of [['status', 'number'], ['message', 'string'], ['delayMs', 'number'], ['networkError', 'boolean'], ['times', 'number']] as const) {
    if (rest[name] !== undefined && typeof rest[name] !== type) throw new EntryError(`body.${name}`, `must be a ${type}`);
  }
  return { operation: operation as OperationId, forced: { ...(rest as ForcedResponse), ...(headers !== undefined && { headers: headers as Record<string, string> }) } };
}

async function sellerInfo(api: MockApi, sellerId: string): Promise<ApiResponse> {
  const seller = api.findSeller(sellerId);
  if (!seller) throw new ApiError(404, `No seller has the id ${sellerId}`);
  return json(200, { id: seller.sellerId, customerLimit: seller.customerLimit, customerCount: api.store.countCustomers(seller.sellerId) });
}

type Route = { method: string; pattern: RegExp; run: (mock: ControlContext, request: ApiRequest, match: RegExpExecArray) => Promise<ApiResponse> };

/** The control API, described in openapi.mock-control.yaml at the repository root. */
const ROUTES: Route[] = [
  {
    method: 'POST',
    pattern: /^\/reset$/,
    run: async ({ api, webhooks }) => {
      webhooks.reset();
      await api.reset();
      return json(204);
    },
  },
  {
    method: 'POST',
    pattern: /^\/next-responses$/,
    run: async ({ api }, request) => {
      const { operation, forced } = forcedOf(bodyOf(request));
      checkForced(operation, forced, 'body');
      api.nextResponse(operation, forced);
      return json(204);
    },
  },
  {
    method: 'POST',
    pattern: /^\/sellers$/,
    run: async ({ api }, request) => {
      const body = objectAt(bodyOf(request), 'body', ['id', 'customerLimit']);
      const sellerId = sellerIdAt(body.id, 'body.id');
      if (sellerId && api.findSeller(sellerId)) throw new EntryError('body.id', 'is the id of a seller the mock already has');
      const customerLimit = customerLimitAt(body.customerLimit, 'body.customerLimit');
      const seller = await api.addSeller({ ...(sellerId && { sellerId }), ...(customerLimit !== undefined && { customerLimit }) });
      return json(201, { id: seller.sellerId, customerLimit: seller.customerLimit, key: seller.apiKey });
    },
  },
  { method: 'GET', pattern: /^\/sellers\/([^/]+)$/, run: ({ api }, _request, [, id]) => sellerInfo(api, id!) },
  {
    method: 'POST',
    pattern: /^\/sellers\/([^/]+)\/keys$/,
    run: async ({ api }, request, [, id]) => {
      await sellerInfo(api, id!); // 404 for an unknown seller
      const body = objectAt(bodyOf(request), 'body', ['key', 'revoked', 'expiresAt', 'mode', 'scopes']);
      const given = apiKeyAt(body.key, 'body.key');
      const kind = keyKindAt(body, given, 'body');
      const type = { kind: apiKeyKindFor(kind.scopes), mode: kind.mode ?? 'live' } as const;
      const key = given ?? generateApiKey(type);
      await api.addKey(id!, { apiKey: key, ...keyLifecycleAt(body, 'body'), ...kind });
      const parsed = parseApiKey(key)!;
      return json(201, { sellerId: id, key, mode: parsed.mode, scopes: kind.scopes ?? null });
    },
  },
  {
    method: 'POST',
    pattern: /^\/keys\/revoke$/,
    run: async ({ api }, request) => {
      const key = apiKeyAt(objectAt(bodyOf(request), 'body', ['key']).key, 'body.key');
      if (key === undefined) throw new EntryError('body.key', 'is required');
      await api.revokeKey(key);
      return json(204);
    },
  },
  { method: 'GET', pattern: /^\/webhooks$/, run: async ({ webhooks }) => json(200, { data: webhooks.list() }) },
  {
    method: 'POST',
    pattern: /^\/webhooks$/,
    run: async ({ api, webhooks }, request) => {
      const endpoint = webhookEntryAt(bodyOf(request), 'body');
      if (endpoint.sellerId !== undefined && !api.findSeller(endpoint.sellerId)) {
        throw new EntryError('body.sellerId', 'is not the id of a seller the mock knows');
      }
      return json(201, webhooks.add(endpoint));
    },
  },
  {
    method: 'DELETE',
    pattern: /^\/webhooks\/([^/]+)$/,
    run: async ({ webhooks }, _request, [, id]) => {
      if (!webhooks.remove(id!)) throw new ApiError(404, `No webhook endpoint has the id ${id}`);
      return json(204);
    },
  },
  { method: 'GET', pattern: /^\/requests$/, run: async ({ api }, request) => json(200, api.requests(journalFilterOf(request.query))) },
  {
    method: 'DELETE',
    pattern: /^\/requests$/,
    run: async ({ api }) => {
      api.clearRequests();
      return json(204);
    },
  },
  { method: 'GET', pattern: /^\/clock$/, run: async ({ api }) => json(200, api.clock.state()) },
  {
    method: 'POST',
    pattern: /^\/clock$/,
    run: async (mock, request) => {
      await changeClock(mock, bodyOf(request));
      return json(200, mock.api.clock.state());
    },
  },
  {
    method: 'DELETE',
    pattern: /^\/clock$/,
    run: async ({ api }) => {
      api.clock.unfreeze();
      return json(200, api.clock.state());
    },
  },
  { method: 'GET', pattern: /^\/deliveries$/, run: async ({ webhooks }) => json(200, { data: webhooks.deliveries() }) },
  { method: 'POST', pattern: /^\/deliveries\/retry$/, run: async ({ webhooks }) => json(200, { data: await webhooks.retryNow() }) },
];

/**
 * Answers a request below {@link CONTROL_PREFIX}: reset, queue forced responses, add sellers and keys,
 * revoke keys, read a seller's customer count, add, list and remove webhook endpoints, list deliveries and
 * retry them now, read and clear the request journal, read, set, advance and unfreeze the clock. A bad request is a 400 `{ error, message }` naming the entry; an unknown path 404, another
 * method 405 + Allow, as the API answers them.
 *
 * @example
 * await controlAnswer({ api, webhooks }, { method: 'POST', path: '/__mock/reset', header, body: null }); // 204
 */
export async function controlAnswer(mock: ControlContext, request: ApiRequest): Promise<ApiResponse> {
  const path = request.path.slice(CONTROL_PREFIX.length);
  const method = request.method.toUpperCase();
  try {
    const matching = ROUTES.map((route) => ({ route, match: route.pattern.exec(path) })).filter(({ match }) => match);
    if (matching.length === 0) throw errors.routeNotFound(request.path);
    const found = matching.find(({ route }) => route.method === method);
    if (!found) throw errors.methodNotAllowed(method, matching.map(({ route }) => route.method));
    return await found.route.run(mock, request, found.match!);
  } catch (caught) {
    const error = caught instanceof TypeError ? errors.badRequest(caught.message) : caught;
    if (error instanceof ApiError) return errorAnswer(error);
    throw error;
  }
}
