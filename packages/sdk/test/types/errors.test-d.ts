// Type tests of the error classes and result mode, run by vitest's typecheck (tsc): a wrong type fails a test.
import { describe, expectTypeOf, it } from 'vitest';
import {
  type ApiCallError,
  type ApiErrorBody,
  BadRequestError,
  ConflictError,
  ConnectionError,
  CustomersApiError,
  type CustomersClient,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  type Result,
  TimeoutError,
  UnexpectedStatusError,
  UserAbortError,
  type Customer,
} from '../../src/index';

declare const client: CustomersClient;

describe('error classes', () => {
  it('have literal status types', () => {
    expectTypeOf<NotFoundError['status']>().toEqualTypeOf<404>();
    expectTypeOf<ConflictError['status']>().toEqualTypeOf<409>();
    expectTypeOf<BadRequestError['status']>().toEqualTypeOf<400>();
    expectTypeOf<RateLimitError['status']>().toEqualTypeOf<429>();
    expectTypeOf<500 | 503 | 599>().toMatchTypeOf<InternalServerError['status']>();
    expectTypeOf<404>().not.toMatchTypeOf<InternalServerError['status']>();
    expectTypeOf<408 | 422>().toMatchTypeOf<UnexpectedStatusError['status']>();
    expectTypeOf<404>().not.toMatchTypeOf<UnexpectedStatusError['status']>();
    expectTypeOf<CustomersApiError['status']>().toEqualTypeOf<number | undefined>();
  });

  it('have no status, headers or body when no response arrived', () => {
    for (const e of [new ConnectionError('x'), new TimeoutError('x'), new UserAbortError('x')]) {
      expectTypeOf(e.status).toEqualTypeOf<undefined>();
      expectTypeOf(e.headers).toEqualTypeOf<undefined>();
      expectTypeOf(e.body).toEqualTypeOf<undefined>();
    }
  });

  it('type the body as the API error body or text, never unknown', () => {
    expectTypeOf<NotFoundError['body']>().toEqualTypeOf<ApiErrorBody | string>();
    expectTypeOf<NotFoundError['headers']>().toEqualTypeOf<Headers>();
    expectTypeOf<ApiErrorBody>().toEqualTypeOf<{ readonly error: string; readonly message: string }>();
    expectTypeOf<ConflictError['apiMessage']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<CustomersApiError['body']>().toEqualTypeOf<ApiErrorBody | string | undefined>();
  });

  it('narrow through instanceof', () => {
    const err: unknown = null;
    if (err instanceof NotFoundError) expectTypeOf(err.status).toEqualTypeOf<404>();
  });
});

describe('result mode', () => {
  it('narrows error by status (a discriminated union)', async () => {
    const result = await client.customers.get('id').result();
    expectTypeOf(result).toEqualTypeOf<Result<Customer>>();
    const { data, error } = result;
    if (error === undefined) {
      expectTypeOf(data).toEqualTypeOf<Customer>();
      return;
    }
    expectTypeOf(error).toEqualTypeOf<ApiCallError>();
    if (error.status === 404) expectTypeOf(error).toEqualTypeOf<NotFoundError>();
    if (error.status === 409) expectTypeOf(error).toEqualTypeOf<ConflictError>();
    if (error.status === 503) expectTypeOf(error).toEqualTypeOf<InternalServerError>();
    if (error.status === 422) expectTypeOf(error).toEqualTypeOf<UnexpectedStatusError>();
    if (error.status === undefined) {
      expectTypeOf(error).toEqualTypeOf<ConnectionError | TimeoutError | UserAbortError>();
    }
    if (error.name === 'UserAbortError') expectTypeOf(error).toEqualTypeOf<UserAbortError>();
  });

  it('has data only when there is no error', async () => {
    const { data, error } = await client.customers.get('id').result();
    if (error) expectTypeOf(data).toEqualTypeOf<undefined>();
  });
});
