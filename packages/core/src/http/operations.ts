import type { HeaderReader } from '../auth/read-api-key.js';
import type { CustomerService, PreReadPage } from '../customers/customer-service.js';
import { SPEC_OPERATIONS } from '../generated/operations.js';
import type { CreatedWebhookEndpoint, Customer, CustomerEvent, SellerContext } from '../types.js';
import type { WebhookService } from '../webhooks/webhook-service.js';
import { type TestDataStore, wipeTestData } from '../tenancy/test-data.js';
import { changeTestClock, readTestClock, type TestClockDoor } from '../tenancy/test-clock.js';
import { BODY_LIMIT_BYTES, readJsonBody } from './read-json-body.js';
import { assertScope } from '../auth/scopes.js';
import { ApiError, isApiError } from '../errors/api-error.js';
import { errors } from '../errors/registry.js';
import {
  downgradeEvent,
  downgradeErrorMessage,
  downgradeResponse,
  upgradeRequest,
  type VersionChange,
} from '../versions/version-change.js';

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
  /** The customer read together with the key (see `authenticateOperation`), so getCustomer reads nothing again. */
  preRead?: PreRead | undefined;
  /** The list page read together with the key (see `authenticateOperation`), so listCustomers reads nothing again. */
  preReadPage?: PreReadPage | undefined;
  /**
   * The version changes between the caller's version and the latest (`ApiVersioning.changesFor`): the body is
   * read through them up to the latest, the success body and error messages come back down. Undefined: latest.
   */
  changes?: readonly VersionChange[] | undefined;
  /** The version the answer is written in (events carry it in `api_version`); with `changes`. */
  apiVersion?: string | undefined;
  /**
   * The webhook-endpoint and event rules over the host's store. A host without one answers those operations
   * `404` like an unknown route (none does once issue 37 is done).
   */
  webhooks?: WebhookService | undefined;
  /** The test-data wipe over the host's stores; without it, deleteTestData answers `404` like an unknown route. */
  testData?: TestDataStore | undefined;
  /** The seller's test clock; without it, getTestClock and advanceTestClock answer `404` like an unknown route. */
  testClock?: TestClockDoor | undefined;
}

/** A customer a store read in the authentication step: the canonical id asked for and what the seller has there. */
export interface PreRead {
  id: string;
  customer: Customer | undefined;
}

/** An operation's success: its status (from openapi.yaml), headers and JSON body (undefined for none). */
export interface OperationResult {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

/** Everything HTTP about an operation comes from openapi.yaml; only the service call is written here. */
export type Operation = (typeof SPEC_OPERATIONS)[OperationId] & { id: OperationId };

/** The body as core's rules read it (415, 413, 400 in that order), on demand. */
type ReadJson = () => Record<string, unknown>;

/**
 * An operation's service call: the promise of its success body (undefined for none), and the headers that body
 * calls for, if any. Plain functions returning the service's own promise: no extra async layer per request.
 */
interface Call {
  run(input: OperationInput, json: ReadJson): Promise<unknown>;
  headers?(body: unknown): Record<string, string>;
}

/** The one place an operationId meets the service call it makes. */
const CALLS: Record<OperationId, Call> = {
  createCustomer: {
    run: ({ service, seller, header }, json) =>
      service
        .create(seller, json(), { idempotencyKey: header('idempotency-key') ?? undefined })
        .then(({ customer }) => customer),
    headers: (customer) => ({ Location: pathFor('getCustomer', { id: (customer as Customer).id }) }),
  },
  listCustomers: { run: ({ service, seller, query, preReadPage }) => service.list(seller, query ?? '', preReadPage) },
  // The `?? ''` fallbacks below: any replacement text is no UUID either, so it is the same 404.
  // Stryker disable next-line StringLiteral: equivalent (see above)
  getCustomer: { run: ({ service, seller, params, preRead }) => service.get(seller, params.id ?? '', preRead) },
  // Stryker disable next-line StringLiteral: equivalent (see above)
  updateCustomer: { run: ({ service, seller, params }, json) => service.update(seller, params.id ?? '', json()) },
  // Stryker disable next-line StringLiteral: equivalent (see above)
  deleteCustomer: { run: ({ service, seller, params }) => service.delete(seller, params.id ?? '') },
  listWebhookEndpoints: { run: (input) => webhooksOf(input).listEndpoints(input.seller, input.query ?? '') },
  createWebhookEndpoint: {
    run: (input, json) =>
      webhooksOf(input).createEndpoint(input.seller, json(), { idempotencyKey: input.header('idempotency-key') ?? undefined }),
    headers: (endpoint) => ({ Location: pathFor('getWebhookEndpoint', { id: (endpoint as CreatedWebhookEndpoint).id }) }),
  },
  getWebhookEndpoint: { run: (input) => webhooksOf(input).getEndpoint(input.seller, input.params.id ?? '') },
  updateWebhookEndpoint: {
    run: (input, json) => webhooksOf(input).updateEndpoint(input.seller, input.params.id ?? '', json()),
  },
  deleteWebhookEndpoint: { run: (input) => webhooksOf(input).deleteEndpoint(input.seller, input.params.id ?? '') },
  // The body is optional: none (or an empty one) is every default.
  rotateWebhookEndpointSecret: {
    run: (input, json) =>
      webhooksOf(input).rotateSecret(input.seller, input.params.id ?? '', input.body?.byteLength ? json() : undefined),
  },
  replayWebhookEvents: { run: (input, json) => webhooksOf(input).replay(input.seller, input.params.id ?? '', json()) },
  listEvents: {
    run: (input) =>
      webhooksOf(input)
        .listEvents(input.seller, input.query ?? '')
        .then((list) => ({ ...list, data: list.data.map((event) => inCallersVersion(input, event)) })),
  },
  getEvent: {
    run: (input) =>
      webhooksOf(input)
        .getEvent(input.seller, input.params.id ?? '')
        .then((event) => inCallersVersion(input, event)),
  },
  deleteTestData: { run: (input) => wipeTestData(input.seller, testDataOf(input)) },
  getTestClock: { run: (input) => readTestClock(input.seller, testClockOf(input)) },
  advanceTestClock: { run: (input, json) => changeTestClock(input.seller, testClockOf(input), json) },
};

function testClockOf(input: OperationInput): TestClockDoor {
  if (!input.testClock) throw errors.routeNotFound(pathFor('getTestClock'));
  return input.testClock;
}

function testDataOf(input: OperationInput): TestDataStore {
  if (!input.testData) throw errors.routeNotFound(pathFor('deleteTestData'));
  return input.testData;
}

function webhooksOf(input: OperationInput): WebhookService {
  if (!input.webhooks) throw errors.routeNotFound(pathFor('listWebhookEndpoints'));
  return input.webhooks;
}

/** An event of the latest version written in the caller's, as a webhook endpoint pinned to it receives it. */
function inCallersVersion(input: OperationInput, event: CustomerEvent): CustomerEvent {
  const { changes, apiVersion } = input;
  if (changes === undefined || apiVersion === undefined) return event;
  return { ...downgradeEvent(changes, event as Record<string, unknown>), api_version: apiVersion } as CustomerEvent;
}

/** Every operation of openapi.yaml, in the spec's order. */
export const OPERATIONS: readonly Operation[] = OPERATION_IDS.map((id) => ({ id, ...SPEC_OPERATIONS[id] }));

/**
 * Headers on every API response. Answers carry customer data (or say whether a customer exists), so no
 * cache between the seller and the API may keep them.
 */
export const API_RESPONSE_HEADERS: Readonly<Record<string, string>> = { 'Cache-Control': 'no-store' };

// A success's headers, built once instead of spread together on every request. Frozen: hosts only read them,
// and an answer with headers of its own (Location) gets a copy.
const HEADERS_WITH_BODY: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'application/json',
  ...API_RESPONSE_HEADERS,
});
const HEADERS_WITHOUT_BODY: Readonly<Record<string, string>> = Object.freeze({ ...API_RESPONSE_HEADERS });

/**
 * Runs one operation for an authenticated seller: reads the body by core's rules when the operation takes
 * one, makes the service call and answers with the spec's success status. Failures throw ApiError. The
 * result's `headers` may be shared between answers: read them, never change them.
 *
 * @example
 * const result = await runOperation(operation, { service, seller, params: { id }, header, body: null });
 */
export async function runOperation(operation: Operation, input: OperationInput): Promise<OperationResult> {
  // Before anything of the request is read: a restricted key without the operation's scope is 403.
  assertScope(operation, input.seller.scopes);
  const { changes } = input;
  return changes === undefined ? runLatest(operation, input) : runInVersion(operation, input, changes);
}

/** The operation for a caller of an earlier version: the same call, translated through the changes. */
async function runInVersion(
  operation: Operation,
  input: OperationInput,
  changes: readonly VersionChange[],
): Promise<OperationResult> {
  try {
    const result = await runLatest(operation, input, changes);
    return { ...result, body: downgradeResponse(changes, result.body, operation.id) };
  } catch (caught) {
    if (!isApiError(caught)) throw caught;
    const message = downgradeErrorMessage(changes, caught.message, operation.id);
    throw message === caught.message ? caught : new ApiError(caught.status, message, { ...caught.headers });
  }
}

async function runLatest(
  operation: Operation,
  input: OperationInput,
  changes?: readonly VersionChange[],
): Promise<OperationResult> {
  const call = CALLS[operation.id];
  const read = () => readJsonBody(input.header, input.body, input.bodyLimitBytes ?? BODY_LIMIT_BYTES);
  const body = await call.run(input, changes ? () => upgradeRequest(changes, read(), operation.id) : read);
  const common = body === undefined ? HEADERS_WITHOUT_BODY : HEADERS_WITH_BODY;
  return { status: operation.successStatus, headers: call.headers ? { ...common, ...call.headers(body) } : common, body };
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
