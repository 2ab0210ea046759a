import { APIPromise } from '../core/api-promise';
import type { RequestOptions, Send } from '../client';
import type { components } from '../generated/openapi';

type TestDataWipeSchema = components['schemas']['TestDataWipe'];

/** What a wipe of the test data removed: how many test customers, webhook endpoints and events went. */
export interface TestDataWipe extends TestDataWipeSchema {}

/** The seller's test data (made with `sk_test_` / `rk_test_` keys) as one whole. Reach it as `client.testData`. */
export class TestData {
  readonly #send: Send;

  /** @internal Use `client.testData`. */
  constructor(send: Send) {
    this.#send = send;
  }

  /**
   * Wipes the seller's test data in one call (`DELETE /api/test_data`): test customers, test webhook endpoints
   * with their deliveries, test events and the idempotency keys of test requests. Live data is never touched and
   * no event is sent; test keys and the test version pin stay. Needs a test key.
   * @throws PermissionDeniedError with a live key (or a restricted key without `customers:write` and
   *   `webhook_endpoints:write`).
   * @example
   * const wiped = await client.testData.delete();
   * console.log(`${wiped.customers} test customers removed`);
   */
  delete(options?: RequestOptions): APIPromise<TestDataWipe> {
    return new APIPromise((context) => this.#send(options, { method: 'DELETE', path: '/api/test_data' }, context));
  }
}
