import { errors } from '../errors/registry.js';
import * as generatedBodies from '../generated/validators.js';
import type { MockClock } from '../mock/mock-clock.js';
import type { SellerContext, TestClock, TestClockChange } from '../types.js';
import type { GeneratedValidator } from '../validation/ajv-error.js';
import { checkBody } from '../validation/validate.js';
import { tenantOf } from './tenant.js';

// The test clock's rules (issue 38), once for every host: only a test key reads or moves it, a change is exactly
// one of `now` and `advance_ms`, and it never goes back (so it is never behind an existing test object's
// timestamps). Each host is a door onto a clock of its own: the mocks' one MockClock (`/__mock/clock` is the
// other door onto it), the server's per-seller offset (apps/server/src/db/test-clocks.ts).

/** openapi.yaml's cap on one advance: ten years. */
export const MAX_TEST_CLOCK_ADVANCE_MS = 315_360_000_000;

/** What a host's test clock does: tell its time, and move to a later instant (checked here first). */
export interface TestClockDoor {
  /** The seller's test clock now, in milliseconds since the epoch, and whether it stands still. */
  read(sellerId: string): Promise<{ now: number; frozen: boolean }>;
  /** Moves it to `target` (never earlier than what `read` said): `{ now }` asked for that instant. */
  set(sellerId: string, target: number): Promise<void>;
  /** Moves it on by `ms`: `{ advance_ms }`. */
  advance(sellerId: string, ms: number): Promise<void>;
}

const validateChange = (generatedBodies as unknown as Record<string, GeneratedValidator>)['validateTestClockChange']!;

/**
 * `GET /api/test_clock`: a test key reads its seller's test clock; a live key is 403 naming the operation.
 *
 * @example
 * await readTestClock(seller, door); // { now: '2026-12-01T09:30:00.000Z', frozen: false }
 */
export async function readTestClock(seller: SellerContext, door: TestClockDoor): Promise<TestClock> {
  if (tenantOf(seller).mode !== 'test') throw errors.testKeyRequired('getTestClock');
  return answer(await door.read(seller.sellerId));
}

/**
 * `POST /api/test_clock`: a test key sets its seller's test clock (`now`) or moves it on (`advance_ms`); the
 * clock never goes back (400 naming `now`). A live key is 403, before the body is read.
 *
 * @example
 * await changeTestClock(seller, door, { advance_ms: 259_200_000 }); // three days on
 */
export async function changeTestClock(seller: SellerContext, door: TestClockDoor, read: () => unknown): Promise<TestClock> {
  if (tenantOf(seller).mode !== 'test') throw errors.testKeyRequired('advanceTestClock');
  const body = read();
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    // Said before the schema's maxProperties would say only "body is invalid".
    const unknown = Object.keys(body).find((name) => name !== 'now' && name !== 'advance_ms');
    if (unknown !== undefined) throw errors.badRequest(`${unknown} is not an allowed property`);
    const given = ['now', 'advance_ms'].filter((name) => name in body);
    if (given.length !== 1) throw errors.badRequest('body must have exactly one of now (an ISO 8601 instant) and advance_ms');
  }
  const change = checkBody<TestClockChange>(validateChange, body);
  if (change.advance_ms !== undefined) {
    await door.advance(seller.sellerId, change.advance_ms);
  } else {
    const target = Date.parse(change.now!);
    const current = (await door.read(seller.sellerId)).now;
    if (target < current) {
      throw errors.badRequest(
        `now: the test clock cannot go back: ${new Date(target).toISOString()} is before its now, ${new Date(current).toISOString()}`,
      );
    }
    await door.set(seller.sellerId, target);
  }
  return answer(await door.read(seller.sellerId));
}

/**
 * The time a request's test-mode rules read: the seller's test clock when the host read one for it
 * (`SellerContext.testClockOffsetMs`), else the host's own clock. Live mode never moves.
 *
 * @example
 * testClockNow(seller, Date.now()); // Date.now() + the seller's offset in test mode
 */
export function testClockNow(seller: Pick<SellerContext, 'mode' | 'testClockOffsetMs'>, hostNow: number): number {
  return seller.mode === 'test' && seller.testClockOffsetMs ? hostNow + seller.testClockOffsetMs : hostNow;
}

/**
 * The mocks' door: their one clock (what `/__mock/clock` moves too), whichever seller asks. `settle` lets
 * deliveries under way end first, so the retries they lead to are scheduled before the clock moves.
 *
 * @example
 * const door = mockTestClock(api.clock);
 */
export function mockTestClock(clock: MockClock, settle: () => Promise<void> = async () => {}): TestClockDoor {
  return {
    read: async () => ({ now: clock.now(), frozen: clock.state().frozen }),
    async set(_, target) {
      await settle();
      await clock.set(target);
    },
    async advance(_, ms) {
      await settle();
      await clock.advance(ms);
    },
  };
}

function answer({ now, frozen }: { now: number; frozen: boolean }): TestClock {
  return { now: new Date(now).toISOString(), frozen };
}

/**
 * A timestamp of `clock` for a request of `seller`: moved on by the seller's test clock in test mode (see
 * {@link testClockNow}); the clock's own in live mode. Services stamp created_at, updated_at and windows with it.
 *
 * @example
 * const now = testClockTimestamp(clock, seller);
 */
export function testClockTimestamp(clock: () => string, seller: Pick<SellerContext, 'mode' | 'testClockOffsetMs'>): string {
  const stamp = clock();
  return seller.mode === 'test' && seller.testClockOffsetMs ? new Date(Date.parse(stamp) + seller.testClockOffsetMs).toISOString() : stamp;
}
