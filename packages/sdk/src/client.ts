import type { Answer, CallContext } from './core/api-promise';
import { type ApiCallError, ConfigurationError, ConnectionError, TimeoutError } from './core/errors';
import type { ClientHooks } from './core/hooks';
import type { DeprecationNotice, LogEvent, Logger } from './core/logger';
import { API_VERSION } from './generated/api-version';
import { rateLimitOf } from './core/rate-limit';
import { validateApiKey } from './internal/api-key';
import { guardBrowser } from './internal/browser-guard';
import { envLogger } from './internal/env-logger';
import { readEnv } from './internal/env';
import { errorFromResponse } from './internal/error-from-response';
import { requestIdOf } from './internal/headers';
import { type ApiRequest, partsOf, readBody } from './internal/http';
import { abortError } from './internal/abort-error';
import { sdkHeaders } from './internal/runtime';
import { slowPath } from './internal/slow-path';
import { Customers } from './resources/customers';
import { Webhooks } from './resources/webhooks';
import { WebhookEndpoints } from './resources/webhook-endpoints';
import { Events } from './resources/events';
import { TestClocks } from './resources/test-clock';
import { TestData } from './resources/test-data';
import { VERSION } from './version';

/**
 * A `fetch` implementation: the global one, undici's, node-fetch, a test double. The SDK always calls it with
 * the URL as a string and an init holding `method`, `headers`, `body`, `signal` and `redirect`.
 *
 * @example
 * const fetch: Fetch = (url, init) => globalThis.fetch(url, { ...init, keepalive: true });
 */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** Default base URL when neither `baseUrl` nor `CUSTOMERS_API_BASE_URL` is set. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';
/** Default timeout of one attempt, in milliseconds (60 s). */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Default number of retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 2;

/** Options of {@link CustomersClient}. */
export interface ClientOptions {
  /** `sk_live_`, `sk_test_`, `rk_live_` or `rk_test_` + 48 letters and digits. Defaults to the `CUSTOMERS_API_KEY` environment variable. */
  apiKey?: string | undefined;
  /** Defaults to `CUSTOMERS_API_BASE_URL`, else `http://127.0.0.1:3000`. */
  baseUrl?: string | undefined;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number | undefined;
  /** Timeout of each attempt in milliseconds (default 60 000). */
  timeout?: number | undefined;
  /** A custom `fetch` (default: the global `fetch`, looked up at call time). */
  fetch?: Fetch | undefined;
  /**
   * Headers sent with every request. They override the SDK's defaults (`Accept`, `User-Agent`,
   * `X-Customers-Sdk-Version`, `X-Customers-Sdk-Runtime`, `X-Customers-Sdk-Runtime-Version`).
   */
  defaultHeaders?: Record<string, string> | undefined;
  /**
   * Receives request, response, retry and error events; never the key. Without it, the `CUSTOMERS_API_LOG`
   * environment variable (`debug`, `info`, `warn`, `error` or `off`, read once) logs them to the console.
   */
  logger?: Logger | undefined;
  /** Code run around each attempt: `onRequest`, `onResponse`, `onRetry` (see {@link ClientHooks}). */
  hooks?: ClientHooks | undefined;
  /**
   * The API version requests are written for, sent as `Customers-Version` (default {@link API_VERSION}, the version
   * this SDK release was generated for). Pin it to keep an older version's behaviour while you migrate.
   */
  apiVersion?: string | undefined;
  /**
   * Called once per client and operation when a response says its API version is deprecated (`Deprecation`
   * header), with the `Sunset` date and migration link when sent. Without it the notice goes to the `logger` (a
   * `deprecation` event), else to `console.warn`; `() => {}` silences it.
   */
  onDeprecation?: ((notice: DeprecationNotice) => void) | undefined;
  /** API keys are secrets for server-side use: set this only if you really ship the key to a browser. */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * The `whsec_` secret (or several, during a rotation) `client.webhooks.verify` checks webhook requests with.
   * Defaults to the `CUSTOMERS_API_WEBHOOK_SECRET` environment variable.
   */
  webhookSecret?: string | readonly string[] | undefined;
}

/** Options every method accepts as its last argument. */
export interface RequestOptions {
  /** Retries for this call (overrides the client's `maxRetries`). */
  maxRetries?: number | undefined;
  /** Timeout of each attempt of this call, in milliseconds. */
  timeout?: number | undefined;
  /**
   * Aborts the call (and any pending retry); the call then rejects with `UserAbortError`, or with `TimeoutError`
   * when the signal timed out (`AbortSignal.timeout(ms)`: an overall deadline, not retried).
   */
  signal?: AbortSignal | undefined;
  /** Extra headers for this call (`Prefer`, tracing headers, ...). */
  headers?: Record<string, string> | undefined;
  /** Sent as `X-Request-Id` (1-128 of `A-Z a-z 0-9 . _ : -`); the server echoes it. */
  requestId?: string | undefined;
  /**
   * More of `fetch`'s init for this call, as openai-node's `fetchOptions` (Node's undici `dispatcher` for a proxy,
   * `keepalive`, `cache`, `priority`, `redirect`...). The SDK's own `method`, `headers`, `body` and `signal` win.
   * @example
   * await client.customers.get(id, { fetchOptions: { keepalive: true } });
   */
  fetchOptions?: FetchOptions | undefined;
}

/** `fetch` init fields a call may add ({@link RequestOptions.fetchOptions}); undici's `dispatcher` included. */
export type FetchOptions = Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal'> & Record<string, unknown>;

/** @internal Runs a request through the request loop; resources wrap the answer (`APIPromise`, `PagePromise`). */
export type Send = <T>(options: RequestOptions | undefined, request: ApiRequest, context: CallContext) => Promise<Answer<T>>;


function count(value: number | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new ConfigurationError(`${name} must be a finite number of at least ${min}, got ${String(value)}.`);
  }
  return value;
}

function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`baseUrl must be an absolute http(s) URL such as ${DEFAULT_BASE_URL}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(`baseUrl must use http or https, got ${url.protocol}`);
  }
  return value.replace(/\/+$/, '');
}

/**
 * The Customer Management API client.
 *
 * @example
 * import { CustomersClient } from '@customers-api/sdk';
 *
 * const client = new CustomersClient({ apiKey: process.env.CUSTOMERS_API_KEY, baseUrl: 'https://api.example.com' });
 * const customer = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
 */
export class CustomersClient {
  /** The SDK version, also sent in `User-Agent`. */
  static readonly VERSION = VERSION;

  /** Where requests go, without a trailing slash. */
  declare readonly baseUrl: string;
  /** Retries after the first attempt, unless a call overrides it. */
  declare readonly maxRetries: number;
  /** Timeout of each attempt in milliseconds, unless a call overrides it. */
  declare readonly timeout: number;
  /** Create, get, update and delete customers. */
  declare readonly customers: Customers;
  /** Verify the change events the API sends to your webhook endpoints. */
  declare readonly webhooks: Webhooks;
  /** Register, change, rotate, delete webhook endpoints and replay their events. */
  declare readonly webhookEndpoints: WebhookEndpoints;
  /** List and read change events (catch up after downtime). */
  declare readonly events: Events;
  /** Read and move the test clock test mode runs on (test keys only). */
  declare readonly testClock: TestClocks;
  /** Wipe the seller's test data in one call (test keys only). */
  declare readonly testData: TestData;

  // Private fields: the key never shows up in console.log(client), util.inspect or JSON.stringify.
  readonly #options: ClientOptions;
  readonly #fetch: Fetch;
  readonly #headers: Record<string, string>;
  readonly #logger: Logger | undefined;
  readonly #hooks: ClientHooks;

  constructor(options: ClientOptions = {}) {
    guardBrowser(options.dangerouslyAllowBrowser);
    const apiKey = validateApiKey(options.apiKey ?? readEnv('CUSTOMERS_API_KEY'));
    this.#options = { ...options, apiKey };
    this.baseUrl = normalizeBaseUrl(options.baseUrl ?? readEnv('CUSTOMERS_API_BASE_URL') ?? DEFAULT_BASE_URL);
    this.maxRetries = Math.floor(count(options.maxRetries, 'maxRetries', DEFAULT_MAX_RETRIES, 0));
    this.timeout = count(options.timeout, 'timeout', DEFAULT_TIMEOUT_MS, 1);
    const custom = options.fetch;
    this.#fetch = custom ?? ((input, init) => globalThis.fetch(input, init));
    this.#headers = { Accept: 'application/json', ...sdkHeaders(), 'Customers-Version': options.apiVersion ?? API_VERSION, ...options.defaultHeaders, 'X-API-Key': apiKey };
    this.#logger = options.logger ?? envLogger();
    this.#hooks = options.hooks ?? {};
    this.customers = new Customers((opts, request, context) => this.#send(opts, request, context));
    this.webhookEndpoints = new WebhookEndpoints((opts, request, context) => this.#send(opts, request, context));
    this.events = new Events((opts, request, context) => this.#send(opts, request, context));
    this.testClock = new TestClocks((opts, request, context) => this.#send(opts, request, context));
    this.testData = new TestData((opts, request, context) => this.#send(opts, request, context));
    this.webhooks = new Webhooks(options.webhookSecret ?? readEnv('CUSTOMERS_API_WEBHOOK_SECRET'));
  }

  /**
   * A new client with these options over this one's (the same key unless `apiKey` is given); this client is
   * unchanged. Options left out keep their values; `hooks` and `defaultHeaders` are replaced as a whole.
   * @example
   * const patient = client.withOptions({ timeout: 120_000, maxRetries: 5 });
   * await patient.customers.list({ limit: 100 }).toArray({ limit: 5_000 });
   */
  withOptions(options: ClientOptions): CustomersClient {
    return new CustomersClient({ ...this.#options, ...options });
  }

  #send<T>(options: RequestOptions | undefined, request: ApiRequest, context: CallContext): Promise<Answer<T>> {
    // Checked here, synchronously: a bad option throws from the method call itself.
    const maxRetries = Math.floor(count(options?.maxRetries, 'maxRetries', this.maxRetries, 0));
    return this.#loop<T>(request, options, maxRetries, count(options?.timeout, 'timeout', this.timeout, 1), context);
  }

  /** Hands `event` to the logger; callers check `this.#logger` first, so no event is built without one. */
  #log(event: LogEvent): void {
    try {
      this.#logger!(event);
    } catch {
      // A broken logger must not break the request.
    }
  }

  /**
   * The request loop: each attempt sends the request and reads its body under its own timeout, so a body that
   * stalls times out and is retried like a request that never got an answer. Hooks run outside the timeout.
   * The happy path (no hooks, no logger, a 2xx) does no more than a raw `fetch` with a timeout signal: the
   * client's headers go out as the plain object they are (no `Headers` copy), and the texts and helpers of
   * failures, retries and deprecations load on first use (`error-hints.ts`).
   */
  async #loop<T>(
    request: ApiRequest,
    options: RequestOptions | undefined,
    maxRetries: number,
    timeout: number,
    context: CallContext,
  ): Promise<Answer<T>> {
    const signal = options?.signal;
    // The URL from the path template and query; the operation's own headers (`Idempotency-Key`) win over every other.
    const { method, url, headers: own, body: json } = partsOf(this.baseUrl, request);
    const body = json === undefined ? undefined : JSON.stringify(json);
    let defaults = this.#headers;
    if (options?.headers || options?.requestId !== undefined || own || body !== undefined) {
      defaults = { ...defaults, ...options?.headers };
      if (options?.requestId !== undefined) defaults['X-Request-Id'] = options.requestId;
      Object.assign(defaults, own);
      if (body !== undefined) defaults['Content-Type'] = 'application/json';
    }
    const hooks = this.#hooks;
    const logger = this.#logger;
    // A client that logs loads the redaction (with the error texts) before its first request.
    const kit = logger && (await slowPath());
    for (let attempt = 1; ; attempt++) {
      // A live `Headers` only for a hook that may change them; otherwise a plain copy (cheaper to build, and fetch
      // reads it as fast), so a custom fetch that changes what it is given changes nothing for later attempts.
      let headers: Headers | Record<string, string> = { ...defaults };
      if (hooks.onRequest) await hooks.onRequest({ method, url, attempt, headers: (headers = new Headers(defaults)) });
      if (signal?.aborted) throw abortError(await slowPath(), signal);
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeout);
      const onAbort = () => controller.abort();
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal fires 'abort' at most once and the finally below removes the listener, so { once } changes nothing observable
      signal?.addEventListener('abort', onAbort, { once: true });
      if (kit) this.#log({ type: 'request', method, url, attempt, headers: kit.redactHeaders(new Headers(headers)) });
      const started = Date.now();
      let response: Response | undefined;
      let data: unknown;
      let failed = false;
      let cause: unknown;
      try {
        // Called unbound: a native browser fetch invoked as a method of another object throws Illegal invocation.
        const fetchImpl = this.#fetch;
        const extra = options?.fetchOptions;
        response = await fetchImpl(
          url,
          extra
            ? { redirect: 'follow', ...extra, method, headers, body, signal: controller.signal }
            : { method, headers, body, signal: controller.signal, redirect: 'follow' },
        );
        if (kit) {
          const got = response;
          this.#log({
            type: 'response',
            method,
            url,
            attempt,
            status: got.status,
            requestId: requestIdOf(got.headers),
            headers: kit.redactHeaders(got.headers),
            durationMs: Date.now() - started,
          });
        }
        // `.asResponse()` hands a 2xx body over unread; an error's body is read for the error.
        if (!(context.raw && response.ok)) data = await readBody(response);
      } catch (thrown) {
        if (signal?.aborted) throw abortError(await slowPath(), signal, thrown);
        // A 2xx body that is not JSON: not a network failure.
        if (thrown instanceof SyntaxError && !timedOut) throw thrown;
        response = undefined;
        failed = true;
        cause = thrown;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
      if (response) {
        if (hooks.onResponse) await hooks.onResponse({ method, url, attempt, response, durationMs: Date.now() - started });
        if (response.ok && !response.headers.has('deprecation')) return { data: data as T, response };
      }
      // Off the happy path: a failure, an error status or a deprecation notice. Their texts and helpers load now.
      const slow = await slowPath();
      let error: ApiCallError | undefined;
      if (failed) {
        const Failure = timedOut ? TimeoutError : ConnectionError;
        error = new Failure(slow.failureText(timedOut, { method, url, attempt, attempts: maxRetries + 1, timeout }, cause), { cause });
        if (logger) this.#log({ type: 'error', method, url, attempt, error });
      }
      // A deprecated version's notice: a presence check is all that clients on a current version pay.
      if (response?.headers.has('deprecation')) {
        slow.reportDeprecation(this.#options, { method, url, attempt }, request.path, response.headers, logger);
      }
      if (response?.ok) return { data: data as T, response };
      if (response) {
        const { status, headers: got } = response;
        const requestId = requestIdOf(got);
        error = errorFromResponse(status, got, requestId, slow.describeError(status, data, requestId));
      }
      if (!slow.shouldRetry(response, attempt, maxRetries, method, headers)) throw error!;
      const delayMs = slow.retryDelayMs(attempt - 1, response?.headers);
      // Stryker disable next-line OptionalChaining: an attempt without a failure always has a response, so response is never undefined in this branch
      const reason = failed ? error!.name : `status ${response?.status}`;
      if (logger) this.#log({ type: 'retry', method, url, attempt, delayMs, reason });
      if (hooks.onRetry) await hooks.onRetry({ method, url, attempt, delayMs, error: error!, response, rateLimit: response && rateLimitOf(response.headers) });
      await slow.sleep(delayMs, signal, (fired) => abortError(slow, fired));
    }
  }
}
