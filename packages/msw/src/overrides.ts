import { givenAnswer, parseCustomerCreate, parseCustomerUpdate, routeRequest, type ApiResponse, type OperationId } from '@customers-api/core';
import type { OperationResponse, PathParams, QueryParams, RequestBody } from './operation-types.js';

/** What an override's resolver gets: the request, and its parts typed from openapi.yaml. */
export interface OverrideInfo<Op extends OperationId> {
  request: Request;
  /** Path parameters, percent-decoded (`{ id }` for the item operations). */
  params: PathParams<Op>;
  /** Query parameters as sent: strings, not validated. */
  query: QueryParams<Op>;
  /**
   * The JSON body as sent: not validated, so `unknown` until you check it (or use `validBody`); `undefined` when
   * it is not JSON, and always for operations that take no body.
   */
  body: [RequestBody<Op>] extends [undefined] ? undefined : unknown;
  /**
   * The body typed as openapi.yaml documents it when it passes the operation's schema (core's validators, the
   * ones the mock and the server use), else `undefined`: a body the mock would refuse with a 400.
   */
  validBody: RequestBody<Op> | undefined;
}

/**
 * What a resolver may answer: a response the operation documents (typed; the mock adds `Content-Type`,
 * `X-Request-Id` and the like), a raw `Response` sent exactly as built (any status, headers and body, JSON or
 * not: the escape hatch for what openapi.yaml does not document), or `undefined` to let the mock answer.
 */
export type OverrideReply<Op extends OperationId> = OperationResponse<Op> | Response | undefined;

/**
 * Answers a request to one operation instead of the stateful mock, with a documented response or a raw
 * `Response`; or `undefined` to let the mock (or an earlier override) answer.
 */
export type OverrideResolver<Op extends OperationId> = (info: OverrideInfo<Op>) => OverrideReply<Op> | Promise<OverrideReply<Op>>;

/** The body checks of the operations that take a body: core's, compiled from openapi.yaml. */
const BODY_SCHEMAS: Partial<Record<OperationId, (body: unknown) => unknown>> = {
  createCustomer: parseCustomerCreate,
  updateCustomer: parseCustomerUpdate,
};

function validated(operation: OperationId, body: unknown): unknown {
  try {
    return body === undefined ? undefined : BODY_SCHEMAS[operation]?.(body);
  } catch {
    return undefined; // refused by the schema: the mock would answer 400
  }
}

type AnyResolver = (info: OverrideInfo<OperationId>) => ReturnType<OverrideResolver<OperationId>>;

/**
 * Per-operation overrides layered over the stateful mock, with MSW's `server.use` semantics: the newest
 * override of an operation answers first; `clear()` drops them all.
 *
 * @example
 * const overrides = createOverrides();
 * overrides.use('getCustomer', ({ params }) => ({ status: 200, body: { ...customer, id: params.id } }));
 * await overrides.answer(request, url, '/api/customers/42'); // that 200, or undefined for other operations
 */
export function createOverrides() {
  const byOperation = new Map<OperationId, AnyResolver[]>();
  return {
    use<Op extends OperationId>(operation: Op, resolver: OverrideResolver<Op>): void {
      byOperation.set(operation, [resolver as unknown as AnyResolver, ...(byOperation.get(operation) ?? [])]);
    },
    clear(): void {
      byOperation.clear();
    },
    /** Whether any override is registered; without one the handler skips routing the request twice. */
    get active(): boolean {
      return byOperation.size > 0;
    },
    /** The override's answer to a request (its path below the base path), or undefined to let the mock answer. */
    async answer(request: Request, url: URL, path: string): Promise<ApiResponse | Response | undefined> {
      const route = routeRequest(request.method, path);
      const resolvers = route.kind === 'operation' ? byOperation.get(route.operation.id) : undefined;
      if (route.kind !== 'operation' || !resolvers) return undefined;
      const body: unknown = route.operation.readsBody ? await request.clone().json().catch(() => undefined) : undefined;
      const info = {
        request,
        params: route.params,
        query: Object.fromEntries(url.searchParams),
        body,
        validBody: validated(route.operation.id, body),
      } as OverrideInfo<OperationId>;
      for (const resolver of resolvers) {
        const reply = await resolver(info);
        if (reply instanceof Response) return reply;
        if (reply) return givenAnswer(reply, (name) => request.headers.get(name));
      }
      return undefined;
    },
  };
}
