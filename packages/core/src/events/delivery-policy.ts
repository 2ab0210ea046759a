// How deliveries are tried, as openapi.yaml's "Change events" section states it; every host that delivers
// (the server's outbox worker, the HTTP mock) uses these numbers.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait before each retry of a failed delivery (about three days in all), then the delivery is given up. */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  12 * HOUR,
  24 * HOUR,
  24 * HOUR,
];

/** Attempts per delivery: the first and one per retry delay. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** A receiver that has not answered within this time has failed the attempt. */
export const WEBHOOK_TIMEOUT_MS = 10 * SECOND;

/**
 * How long after its change an event and its delivery history are kept (longer when a delivery of it is still
 * waiting): listed, and resent on request, until then. Far longer than the whole retry schedule.
 */
export const WEBHOOK_EVENT_RETENTION_MS = 30 * 24 * HOUR;

/**
 * An endpoint whose every attempt has failed for this long (no success since the first failure) is disabled:
 * nothing is sent to it, and no event recorded for it, until the seller or the operator enables it again (Svix
 * does the same). Longer than the retry schedule, so one given-up delivery alone never disables an endpoint.
 */
export const WEBHOOK_DISABLE_AFTER_MS = 5 * 24 * HOUR;

/** Up to this share is added to each delay, so retries of many deliveries do not arrive together. */
export const WEBHOOK_RETRY_JITTER = 0.1;

/**
 * How long to wait before the next attempt after `failedAttempts` failures, or undefined when the delivery is
 * given up. `random` (0 ≤ r < 1) picks the jitter.
 *
 * @example
 * nextRetryDelay(1); // 5000 to 5500
 * nextRetryDelay(WEBHOOK_MAX_ATTEMPTS); // undefined: give up
 */
export function nextRetryDelay(failedAttempts: number, random: () => number = Math.random): number | undefined {
  const delay = WEBHOOK_RETRY_DELAYS_MS[failedAttempts - 1];
  if (delay === undefined) return undefined;
  return Math.round(delay * (1 + WEBHOOK_RETRY_JITTER * random()));
}

/** Whether a receiver's status acknowledges the event: any 2xx. Redirects are failures (never followed). */
export function isAcknowledged(status: number): boolean {
  return status >= 200 && status <= 299;
}
