import { WEBHOOK_TIMEOUT_MS, webhookHeaders, type CustomerEvent } from '@customers-api/core';

/** What one delivery attempt got: the receiver's status, or why there was none. */
export interface AttemptOutcome {
  status: number | null;
  error: string | null;
}

export interface SendOptions {
  /** How long the receiver has to answer; default core's `WEBHOOK_TIMEOUT_MS` (10 s). */
  timeoutMs?: number;
  /** The signed timestamp's clock (milliseconds); default `Date.now`. */
  now?: () => number;
  /** Ends the attempt early (the mock is closing): the outcome is then an `error`. */
  signal?: AbortSignal;
  /** Sent beside the signed ones (the event's `Customers-Version`). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * One signed delivery attempt, as the server makes it: `POST` of the event as JSON with core's Standard
 * Webhooks headers, redirects not followed (a 3xx is the outcome), no answer within the timeout is a failure.
 * Never throws: a refused connection or a timeout is an outcome with `error`.
 *
 * @example
 * const { status, error } = await sendWebhook('http://127.0.0.1:9000/hook', secret, event);
 */
export async function sendWebhook(
  url: string,
  /** One secret, or several (a rotation's overlap: each signs, Standard Webhooks' space-separated signatures). */
  secret: string | readonly string[],
  event: CustomerEvent | Record<string, unknown>,
  options: SendOptions = {},
): Promise<AttemptOutcome> {
  const { timeoutMs = WEBHOOK_TIMEOUT_MS, now = Date.now, signal, headers = {} } = options;
  const timeout = AbortSignal.timeout(timeoutMs);
  const body = JSON.stringify(event);
  const signed = await webhookHeaders(typeof secret === 'string' ? [secret] : secret, { id: String(event.id), timestamp: Math.floor(now() / 1000), body });
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'customers-api-mock', ...headers, ...signed },
      body,
      redirect: 'manual',
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
    await response.body?.cancel(); // only the status counts
    return { status: response.status, error: null };
  } catch (error) {
    return { status: null, error: failure(error, timeoutMs) };
  }
}

function failure(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  if (error instanceof DOMException && error.name === 'AbortError') return 'stopped: the mock closed';
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return `${cause.code}${typeof cause.message === 'string' ? `: ${cause.message}` : ''}`;
  return error instanceof Error ? error.message : String(error);
}
