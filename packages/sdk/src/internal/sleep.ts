// Loaded with the error texts (error-hints.ts) on the first retry. It imports nothing at run time (a module
// shared with the entry chunk would become a chunk of its own), so the caller passes the error to reject with.

/** Waits `ms`, or rejects with `abortError(signal)` as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined, abortError: (signal: AbortSignal) => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal fires 'abort' at most once and the timer removes the listener, so { once } changes nothing observable
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
