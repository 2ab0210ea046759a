import { TimeoutError, UserAbortError } from '../core/errors';

/**
 * The error for a call whose own `signal` fired, never retried: a {@link TimeoutError} when the signal timed out
 * (`AbortSignal.timeout(ms)` aborts with a `TimeoutError` DOMException: an overall deadline), else a
 * {@link UserAbortError}.
 */
export function abortError(signal?: AbortSignal, cause?: unknown): TimeoutError | UserAbortError {
  const reason: unknown = signal?.reason ?? cause;
  if ((reason as { name?: unknown } | undefined)?.name === 'TimeoutError') {
    return new TimeoutError('The call ran past the deadline of its AbortSignal (AbortSignal.timeout()); it was not retried.', {
      cause: reason,
    });
  }
  return new UserAbortError('The request was aborted by the caller (its AbortSignal fired); it was not retried.', {
    cause: reason,
  });
}
