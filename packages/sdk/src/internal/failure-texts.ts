// The messages of attempts that got no response. Loaded with the error texts (error-hints.ts) on the first such
// failure, so a client whose calls succeed never downloads them; imports nothing at run time.

/** `fetch failed (connect ECONNREFUSED 127.0.0.1:3000)`: undici hides the useful part in `cause`. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = error.cause instanceof Error ? error.cause.message : undefined;
  return inner && inner !== error.message ? `${error.message} (${inner})` : error.message;
}

/** Where an attempt without a response failed, for its message. */
export interface FailedAttempt {
  method: string;
  url: string;
  attempt: number;
  /** Attempts the call may make in all (`maxRetries + 1`). */
  attempts: number;
  /** The attempt's timeout in milliseconds. */
  timeout: number;
}

/**
 * The message of a `TimeoutError` (the attempt ran past `timeout`) or of a `ConnectionError` (`cause` is what
 * `fetch` rejected with), saying what to check.
 */
export function failureText(timedOut: boolean, { method, url, attempt, attempts, timeout }: FailedAttempt, cause: unknown): string {
  return timedOut
    ? `${method} ${url} timed out after ${timeout} ms (attempt ${attempt} of ${attempts}). Raise the timeout option or check the server.`
    : `${method} ${url} failed without a response (attempt ${attempt} of ${attempts}): ${describe(cause)}. Check baseUrl and the network.`;
}
