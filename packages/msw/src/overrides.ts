import { givenAnswer, routeRequest, type ApiResponse, type OperationId } from '@customers-api/core';
import type { OperationResponse, PathParams, QueryParams, RequestBody } from './operation-types.js';

/** What an override's resolver gets: the request, and its parts typed from openapi.yaml. */
export interface OverrideInfo<Op extends OperationId> {
  request: Request;
  /** Path parameters, percent-decoded (`{ id }` for the item operations). */
  params: PathParams<Op>;
  /** Query parameters as sent: strings, not validated. */
  query: QueryParams<Op>;
  /** The JSON body as sent (not validated; `undefined` when it is not JSON or the operation takes none). */
  body: RequestBody<Op> | undefined;
}

/**
 * Answers a request to one operation instead of the stateful mock, with a documented response; or
 * `undefined` to let the mock (or an earlier override) answer.
 */
export type OverrideResolver<Op extends OperationId> = (
  info: OverrideInfo<Op>,
) => OperationResponse<Op> | undefined | Promise<OperationResponse<Op> | undefined>;

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
    async answer(request: Request, url: URL, path: string): Promise<ApiResponse | undefined> {
      const route = routeRequest(request.method, path);
      const resolvers = route.kind === 'operation' ? byOperation.get(route.operation.id) : undefined;
      if (route.kind !== 'operation' || !resolvers) return undefined;
      const info = {
        request,
        params: route.params,
        query: Object.fromEntries(url.searchParams),
        body: route.operation.readsBody ? await request.clone().json().catch(() => undefined) : undefined,
      } as OverrideInfo<OperationId>;
      for (const resolver of resolvers) {
        const reply = await resolver(info);
        if (reply) return givenAnswer(reply, (name) => request.headers.get(name));
      }
      return undefined;
    },
  };
}
