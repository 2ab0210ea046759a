import { APIPromise } from '../core/api-promise';
import type { RequestOptions, Send } from '../client';
import type { components } from '../generated/openapi';

/** A test clock's time (`now`, ISO 8601 UTC) and whether it stands still (`frozen`). */
export type TestClock = components['schemas']['TestClock'];
/** Exactly one of `now` (an instant, not before the clock's now) and `advance_ms` (milliseconds forward). */
export type TestClockChange = { now: string; advance_ms?: never } | { advance_ms: number; now?: never };

/**
 * The seller's test clock, which test mode runs on: test timestamps, test key expiry, idempotency windows and the
 * retry schedule of test webhook endpoints follow it. Test keys only (`sk_test_`, `rk_test_`); it only moves
 * forward. Reach it as `client.testClock`.
 */
export class TestClocks {
  readonly #send: Send;

  /** @internal Use `client.testClock`. */
  constructor(send: Send) {
    this.#send = send;
  }

  /**
   * Reads the test clock (`GET /api/test_clock`).
   * @throws PermissionDeniedError with a live key.
   * @example
   * const { now } = await client.testClock.retrieve();
   */
  retrieve(options?: RequestOptions): APIPromise<TestClock> {
    return new APIPromise((context) => this.#send(options, { method: 'GET', path: '/api/test_clock' }, context));
  }

  /**
   * Moves the test clock forward (`POST /api/test_clock`): `{ advance_ms }` on by that much, `{ now }` to an instant.
   * Retries of test webhook deliveries that fall due on the way are sent.
   * @throws BadRequestError for an instant before the clock's now.
   * @example
   * await client.testClock.advance({ advance_ms: 3 * 24 * 3600_000 }); // three days on
   */
  advance(body: TestClockChange, options?: RequestOptions): APIPromise<TestClock> {
    return new APIPromise((context) => this.#send(options, { method: 'POST', path: '/api/test_clock', body }, context));
  }
}
