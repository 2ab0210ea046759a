import { abortError } from './abort-error';

/** Waits `ms`, or rejects with {@link abortError}'s error as soon as `signal` aborts. */
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
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal fires 'abort' at most once and the timer removes the listener, so { once } changes nothing observable
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
