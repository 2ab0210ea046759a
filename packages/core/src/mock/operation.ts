/** The API's operations, by their `operationId` in openapi.yaml. */
export type OperationId = 'createCustomer' | 'getCustomer' | 'updateCustomer' | 'deleteCustomer';

export const OPERATION_IDS: readonly OperationId[] = [
  'createCustomer',
  'getCustomer',
  'updateCustomer',
  'deleteCustomer',
];

const COLLECTION = '/api/customers';
/** `METHOD path-kind` → operationId: the one mapping from a request to the operation it calls. */
const OPERATIONS: Record<string, OperationId> = {
  'POST collection': 'createCustomer',
  'GET item': 'getCustomer',
  'PATCH item': 'updateCustomer',
  'DELETE item': 'deleteCustomer',
};

/**
 * The operation a request calls, from its method and its path below the base URL; undefined for anything
 * the contract does not define (core answers those 404/405, and they are never forced).
 *
 * @example
 * operationFor('PATCH', '/api/customers/3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61'); // "updateCustomer"
 */
export function operationFor(method: string, path: string): OperationId | undefined {
  const segment = path.startsWith(`${COLLECTION}/`) ? path.slice(COLLECTION.length + 1) : undefined;
  const kind =
    path === COLLECTION ? 'collection' : segment && !segment.includes('/') ? 'item' : undefined;
  return kind && OPERATIONS[`${method.toUpperCase()} ${kind}`];
}
