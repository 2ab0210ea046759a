import type { ClaimedDelivery } from './delivery-queue.js';

// The test clock in the delivery worker (issue 38). Moving a seller's test clock moves its test endpoints'
// waiting deliveries earlier by the same amount (db/test-clocks.ts), so a retry the move passed is due at once;
// what the worker adds is that a test delivery's next retry is counted from the instant its attempt fell due, not
// from when the worker got to it. A failing test endpoint's retries therefore follow one another through the moved
// time as they would have in real time (each attempt at its own due instant, as the mocks' clock runs them), and
// moving 3+ days walks its whole schedule to the end within seconds. Live deliveries count from the wall clock, as
// before: they never see a test clock.

/**
 * The instant an attempt's outcome is recorded at (its retry scheduled from, its endpoint's failure run measured
 * at): the wall clock for live deliveries; for test ones the instant the delivery fell due, when that is earlier.
 *
 * @example
 * await recordAttempt(database, delivery, outcome, { now: attemptInstant(delivery, new Date(clock.now())), owner });
 */
export function attemptInstant(delivery: ClaimedDelivery, now: Date): Date {
  if (delivery.change.mode !== 'test' || delivery.dueAt === null) return now;
  const due = Date.parse(delivery.dueAt);
  return due < now.getTime() ? new Date(due) : now;
}
