import { UserAbortError } from '../core/errors';

/** Waits `ms`, or rejects with {@link UserAbortError} as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortError(signal?: AbortSignal, cause?: unknown): UserAbortError {
  return new UserAbortError('The request was aborted by the caller (its AbortSignal fired); it was not retried.', {
    cause: signal?.reason ?? cause,
  });
}
