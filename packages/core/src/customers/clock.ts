/** Returns ISO 8601 UTC timestamps. */
export type Clock = () => string;

/**
 * A clock whose timestamps strictly increase, even for two calls in the same millisecond or after the
 * system clock steps back: an update must always refresh `updated_at` to a later value than before.
 *
 * @example
 * const now = createMonotonicClock();
 * now() < now(); // true
 */
export function createMonotonicClock(readMillis: () => number = Date.now): Clock {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    last = Math.max(readMillis(), last + 1);
    return new Date(last).toISOString();
  };
}
