import type { OperationId } from '../http/operations.js';
import { routeRequest } from '../http/router.js';

/**
 * The operation a request calls, from its method and its path below the base URL (core's router, from
 * openapi.yaml); undefined for anything the contract does not define (core answers those 404/405, and they are
 * never forced). HEAD counts as the GET it is answered like.
 *
 * @example
 * operationFor('PATCH', '/api/customers/3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61'); // "updateCustomer"
 */
export function operationFor(method: string, path: string): OperationId | undefined {
  const route = routeRequest(method, path);
  return route.kind === 'operation' ? route.operation.id : undefined;
}
