import type { HeaderReader } from '../auth/read-api-key.js';
import type { CustomerService } from '../customers/customer-service.js';
import { SPEC_OPERATIONS } from '../generated/operations.js';
import type { SellerContext } from '../types.js';
import { BODY_LIMIT_BYTES, readJsonBody } from './read-json-body.js';

/** The API's operations, by their `operationId` in openapi.yaml. */
export type OperationId = keyof typeof SPEC_OPERATIONS;

export const OPERATION_IDS = Object.keys(SPEC_OPERATIONS) as OperationId[];

/** What an operation gets from its host once the request is routed and authenticated. */
export interface OperationInput {
  service: CustomerService;
  seller: SellerContext;
  /** Path parameters by name, percent-decoded (`{ id }`). */
  params: Readonly<Record<string, string>>;
  header: HeaderReader;
  /** The raw query string, without `?` ('' when none); only read by operations with query parameters. */
  query?: string;
  /** The raw body bytes (null when none); only read by operations that take a body. */
  body: Uint8Array | null;
  /** Defaults to 64 KiB, as openapi.yaml fixes it. */
  bodyLimitBytes?: number;
}

/** An operation's success: its status (from openapi.yaml), headers and JSON body (undefined for none). */
export interface OperationResult {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

/** Everything HTTP about an operation comes from openapi.yaml; only the service call is written here. */
export type Operation = (typeof SPEC_OPERATIONS)[OperationId] & { id: OperationId };

interface CallInput extends Omit<OperationInput, 'body'> {
  /** The body as core's rules read it (415, 413, 400 in that order), on demand. */
  json: () => Record<string, unknown>;
}
interface Answer {
  body?: unknown;
  headers?: Record<string, string>;
}

/** The one place an operationId meets the service call it makes. */
const CALLS: Record<OperationId, (input: CallInput) => Promise<Answer>> = {
  async createCustomer({ service, seller, header, json }) {
    const { customer } = await service.create(seller, json(), {
      idempotencyKey: header('idempotency-key') ?? undefined,
    });
    return { body: customer, headers: { Location: pathFor('getCustomer', { id: customer.id }) } };
  },
  listCustomers: async ({ service, seller, query }) => ({ body: await service.list(seller, query ?? '') }),
  // The `?? ''` fallbacks below: any replacement text is no UUID either, so it is the same 404.
  // Stryker disable next-line StringLiteral: equivalent (see above)
  getCustomer: async ({ service, seller, params }) => ({ body: await service.get(seller, params.id ?? '') }),
  updateCustomer: async ({ service, seller, params, json }) => ({
    // Stryker disable next-line StringLiteral: equivalent (see above)
    body: await service.update(seller, params.id ?? '', json()),
  }),
  async deleteCustomer({ service, seller, params }) {
    // Stryker disable next-line StringLiteral: equivalent (see above)
    await service.delete(seller, params.id ?? '');
    return {};
  },
};

/** Every operation of openapi.yaml, in the spec's order. */
export const OPERATIONS: readonly Operation[] = OPERATION_IDS.map((id) => ({ id, ...SPEC_OPERATIONS[id] }));

/**
 * Headers on every API response. Answers carry customer data (or say whether a customer exists), so no
 * cache between the seller and the API may keep them.
 */
export const API_RESPONSE_HEADERS: Readonly<Record<string, string>> = { 'Cache-Control': 'no-store' };

/**
 * Runs one operation for an authenticated seller: reads the body by core's rules when the operation takes
 * one, makes the service call and answers with the spec's success status. Failures throw ApiError.
 *
 * @example
 * const result = await runOperation(operation, { service, seller, params: { id }, header, body: null });
 */
export async function runOperation(operation: Operation, input: OperationInput): Promise<OperationResult> {
  const limit = input.bodyLimitBytes ?? BODY_LIMIT_BYTES;
  const json = () => readJsonBody(input.header, input.body, limit);
  const answer = await CALLS[operation.id]({ ...input, json });
  const hasBody = answer.body !== undefined;
  return {
    status: operation.successStatus,
    headers: {
      ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
      ...API_RESPONSE_HEADERS,
      ...answer.headers,
    },
    ...(hasBody ? { body: answer.body } : {}),
  };
}

/**
 * The path of an operation with its parameters filled in (percent-encoded).
 *
 * @example
 * pathFor('getCustomer', { id: '3f1c…' }); // "/api/customers/3f1c…"
 */
export function pathFor(operationId: OperationId, params: Readonly<Record<string, string>> = {}): string {
  return SPEC_OPERATIONS[operationId].path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
}
