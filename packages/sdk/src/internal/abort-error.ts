import { TimeoutError, UserAbortError } from '../core/errors';

/** The texts of the two abort errors, from the lazy chunk (`error-hints.ts`): an abort is off the happy path. */
export interface AbortTexts {
  abortText(timedOut: boolean): string;
}

/**
 * The error for a call whose own `signal` fired, never retried: a {@link TimeoutError} when the signal timed out
 * (`AbortSignal.timeout(ms)` aborts with a `TimeoutError` DOMException: an overall deadline), else a
 * {@link UserAbortError}.
 */
export function abortError(texts: AbortTexts, signal?: AbortSignal, cause?: unknown): TimeoutError | UserAbortError {
  const reason: unknown = signal?.reason ?? cause;
  const timedOut = (reason as { name?: unknown } | undefined)?.name === 'TimeoutError';
  return new (timedOut ? TimeoutError : UserAbortError)(texts.abortText(timedOut), { cause: reason });
}
