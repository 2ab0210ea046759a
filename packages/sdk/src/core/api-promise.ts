import { requestIdOf } from '../internal/headers';
import { slowPath } from '../internal/slow-path';
import { type ApiCallError, CustomersApiError } from './errors';
import { rateLimitOf, type RateLimitState } from './rate-limit';

/** A successful call with its HTTP response. */
export interface WithResponse<T> {
  data: T;
  /** The final HTTP response (its body has already been read). */
  response: Response;
  /** The response's `X-Request-Id`. */
  requestId: string | undefined;
  /** The API version the response was answered in (`Customers-Version`). */
  apiVersion: string | undefined;
  /** What is left of the rate limit (`RateLimit` header); `undefined` when the server does not limit. */
  rateLimit: RateLimitState | undefined;
}

/**
 * The outcome of a call in result mode: check `error` instead of catching. `error` is an {@link ApiCallError},
 * which narrows by `status` (`error.status === 404` makes it a `NotFoundError`) or by `instanceof`.
 */
export type Result<T> =
  | { data: T; error: undefined; requestId: string | undefined }
  | { data: undefined; error: ApiCallError; requestId: string | undefined };

/** @internal What the request loop resolves with; the request id is read from the headers only when asked for. */
export interface Answer<T> {
  data: T;
  response: Response;
}

/** @internal Shared by a call's promise and its request loop: `raw` asks the loop to leave a 2xx body unread. */
export interface CallContext {
  raw?: boolean;
}

/**
 * What every method returns: await it for the data (throws a {@link CustomersApiError} on failure),
 * or call `.withResponse()` for the response and request id beside the data, `.asResponse()` for the response
 * alone (body unread), or `.result()` to get errors as values.
 * The request starts when the method is called, not when it is awaited.
 *
 * @example
 * const customer = await client.customers.get(id);
 * const { data, response, requestId } = await client.customers.get(id).withResponse();
 * const { data, error } = await client.customers.get(id).result();
 */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #inner: Promise<Answer<T>>;
  readonly #context: CallContext = {};

  /**
   * @internal Calls `start` at once (the request starts now); `map` turns the parsed body into `T`, unless
   * `.asResponse()` asked for the response alone.
   */
  constructor(start: (context: CallContext) => Promise<Answer<unknown>>, map?: (body: never) => T) {
    const context = this.#context;
    // The caller's frames, taken now: an error rejects later from inside the request loop, whose stack shows only
    // the SDK's frames; they are added to it below.
    const call = new Error();
    const started = start(context);
    // The frames are joined in the lazy chunk of the failure helpers (error-hints.ts): only a failed call pays.
    const failed = (error: unknown): Promise<never> =>
      slowPath().then(({ withCallerFrames }) => {
        throw withCallerFrames(error, call);
      });
    this.#inner = (
      map
        ? started.then((answer) => (context.raw ? answer : { data: map(answer.data as never), response: answer.response }), failed)
        : started.then(undefined, failed)
    ) as Promise<Answer<T>>;
    // A call whose promise is awaited later (after other awaits) must not crash Node with an unhandled rejection in
    // the meantime: the rejection is still delivered to whoever awaits it, then or later.
    this.#inner.catch(noop);
  }

  /**
   * Resolves with the HTTP response as it arrived, its body unread and unparsed (stream it, or read it as you
   * like); a status error still rejects as usual. Call it right away on the method's result, as below: the
   * body is read as soon as the response arrives otherwise.
   * @example
   * const response = await client.customers.get(id).asResponse();
   * console.log(response.status, response.headers.get('content-type'), await response.text());
   */
  asResponse(): Promise<Response> {
    this.#context.raw = true;
    return this.#inner.then(({ response }) => response);
  }

  /**
   * Resolves with the data, the HTTP response, its request id and the rate limit it announced.
   * @example
   * const { data, requestId, rateLimit } = await client.customers.create(body).withResponse();
   * if (rateLimit && rateLimit.remaining === 0) await pause(rateLimit.resetSeconds);
   */
  withResponse(): Promise<WithResponse<T>> {
    return this.#inner.then(({ data, response }) => ({
      data,
      response,
      requestId: requestIdOf(response.headers),
      apiVersion: response.headers.get('customers-version') ?? undefined,
      rateLimit: rateLimitOf(response.headers),
    }));
  }

  /**
   * Never rejects with an SDK error: resolves `{ data, error: undefined }` or `{ data: undefined, error }`.
   * Errors that are not SDK errors (bugs) still reject.
   * @example
   * const { data, error } = await client.customers.get(id).result();
   * if (error?.status === 404) return null; // error is a NotFoundError here
   * if (error) throw error;
   * return data;
   */
  result(): Promise<Result<T>> {
    return this.#inner.then(
      ({ data, response }) => ({ data, error: undefined, requestId: requestIdOf(response.headers) }),
      (error: unknown) => {
        if (!(error instanceof CustomersApiError)) throw error;
        // The request loop rejects with nothing but ApiCallError's classes (ConfigurationError is thrown earlier).
        return { data: undefined, error: error as ApiCallError, requestId: error.requestId };
      },
    );
  }

  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // One reaction instead of a .then(r => r.data) chain: awaiting a call is the hot path.
    return this.#inner.then(
      onfulfilled ? ({ data }) => onfulfilled(data) : ({ data }) => data as unknown as R1,
      onrejected,
    );
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  readonly [Symbol.toStringTag] = 'APIPromise';
}

const noop = (): void => {};
