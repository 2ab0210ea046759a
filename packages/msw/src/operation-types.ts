import type { ForcedResponse, OperationId } from '@customers-api/core';
import type { operations } from '@customers-api/sdk';

/** One operation's entry in the types generated from openapi.yaml. */
type Spec<Op extends OperationId> = operations[Op];

/** The JSON body of one documented response; `undefined` for a response without one (204). */
export type ResponseBody<Op extends OperationId, S extends keyof Spec<Op>['responses']> =
  Spec<Op>['responses'][S] extends { content: { 'application/json': infer Body } } ? Body : undefined;

/** The statuses openapi.yaml documents for an operation, e.g. `200 | 401 | 404 | 500` for `getCustomer`. */
export type DocumentedStatus<Op extends OperationId> = keyof Spec<Op>['responses'] & number;

/** An operation's success status in openapi.yaml (201 for `createCustomer`, 204 for `deleteCustomer`, else 200). */
export type SuccessStatus<Op extends OperationId> = Extract<DocumentedStatus<Op>, 200 | 201 | 204>;

/** `{ status, body }` for one status: `body` required when the status documents one, absent for 204. */
type WithBody<Op extends OperationId, S extends DocumentedStatus<Op>> = [ResponseBody<Op, S>] extends [undefined]
  ? { status: S; body?: undefined }
  : { status: S; body: ResponseBody<Op, S> };

/**
 * A response an override may answer: any status openapi.yaml documents for the operation, with the body
 * documented for it (checked at compile time), and optional extra headers.
 *
 * @example
 * const reply: OperationResponse<'getCustomer'> = { status: 404, body: { error: 'Not Found', message: 'Customer not found' } };
 */
export type OperationResponse<Op extends OperationId> = {
  [S in DocumentedStatus<Op>]: WithBody<Op, S> & { headers?: Record<string, string> };
}[DocumentedStatus<Op>];

/** The JSON request body an operation documents, or `undefined` for operations without one. */
export type RequestBody<Op extends OperationId> = Spec<Op> extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : undefined;

/** An operation's path parameters (`{ id }`), percent-decoded; `{}` for operations without any. */
export type PathParams<Op extends OperationId> = [NonNullable<Spec<Op>['parameters']['path']>] extends [never]
  ? Record<string, never>
  : { [K in keyof NonNullable<Spec<Op>['parameters']['path']>]: string };

/** An operation's query parameters as sent (strings, unvalidated); `{}` for operations without any. */
export type QueryParams<Op extends OperationId> = [NonNullable<Spec<Op>['parameters']['query']>] extends [never]
  ? Record<string, never>
  : { [K in keyof NonNullable<Spec<Op>['parameters']['query']>]?: string };

/**
 * What `nextResponse` accepts for an operation: a forced failure or delay, or its own success status with
 * the body openapi.yaml documents for it (no body for 204).
 *
 * @example
 * const forced: OperationForcedResponse<'getCustomer'> = { status: 200, body: customer };
 */
export type OperationForcedResponse<Op extends OperationId> =
  | (Omit<ForcedResponse, 'status' | 'body'> & { status?: Exclude<ForcedResponse['status'], 200 | 201 | 204> })
  | (Omit<ForcedResponse, 'status' | 'body' | 'networkError'> & WithBody<Op, SuccessStatus<Op>>);
