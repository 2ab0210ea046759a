import { APIPromise, type CallContext } from '../core/api-promise';
import { type CursorPageBody, PagePromise } from '../core/pagination';
import type { RequestOptions, Send } from '../client';
import type { ApiRequest } from '../internal/http';
import type { CreateOptions } from './customers';
import type {
  CreatedWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointListParams,
  WebhookEndpointUpdate,
  WebhookReplay,
  WebhookReplayResult,
  WebhookSecretRotation,
} from './webhook-endpoint-types';

/**
 * Register, read, change, rotate and delete the seller's webhook endpoints, and replay their events. Reach it as
 * `client.webhookEndpoints`.
 */
export class WebhookEndpoints {
  readonly #send: Send;

  /** @internal Use `client.webhookEndpoints`. */
  constructor(send: Send) {
    this.#send = send;
  }

  #call<T>(request: ApiRequest, options: RequestOptions | undefined): APIPromise<T> {
    return new APIPromise((context) => this.#send(options, request, context));
  }

  /**
   * Registers an endpoint (`POST /api/webhook_endpoints`) and answers with its `whsec_` secret, this once. Sends an
   * `Idempotency-Key` (yours, or a fresh one reused on every retry), so a retry never registers twice.
   * @throws BadRequestError (a URL that is not public http(s)), PermissionDeniedError (the endpoint cap), ConflictError (the URL is registered), ...
   * @example
   * const endpoint = await client.webhookEndpoints.create(
   *   { url: 'https://shop.example.com/hooks/customers', events: ['customer.updated'] },
   *   { idempotencyKey: `deploy-${release}` },
   * );
   * saveSecret(endpoint.secret);
   */
  create(body: WebhookEndpointCreate, options?: CreateOptions): APIPromise<CreatedWebhookEndpoint> {
    const key = options?.idempotencyKey ?? globalThis.crypto.randomUUID();
    return this.#call({ method: 'POST', path: '/api/webhook_endpoints', body, params: { header: { 'Idempotency-Key': key } } }, options);
  }

  /**
   * Gets an endpoint by id (`GET /api/webhook_endpoints/{id}`).
   * @throws NotFoundError when the seller has no such endpoint.
   * @example
   * const endpoint = await client.webhookEndpoints.get(id);
   */
  get(id: string, options?: RequestOptions): APIPromise<WebhookEndpoint> {
    return this.#call({ method: 'GET', path: '/api/webhook_endpoints/{id}', params: { path: { id } } }, options);
  }

  /**
   * Changes only the given properties (`PATCH /api/webhook_endpoints/{id}`): `url`, `events`, `description`,
   * `api_version`, `disabled`.
   * @example
   * await client.webhookEndpoints.update(id, { disabled: true });
   */
  update(id: string, patch: WebhookEndpointUpdate, options?: RequestOptions): APIPromise<WebhookEndpoint> {
    return this.#call({ method: 'PATCH', path: '/api/webhook_endpoints/{id}', params: { path: { id } }, body: patch }, options);
  }

  /**
   * Deletes an endpoint and its deliveries (`DELETE /api/webhook_endpoints/{id}`).
   * @example
   * await client.webhookEndpoints.delete(id);
   */
  delete(id: string, options?: RequestOptions): APIPromise<void> {
    return this.#call({ method: 'DELETE', path: '/api/webhook_endpoints/{id}', params: { path: { id } } }, options);
  }

  /**
   * Lists endpoints, newest first (`GET /api/webhook_endpoints`); `for await` walks every page.
   * @example
   * for await (const endpoint of client.webhookEndpoints.list()) console.log(endpoint.url);
   */
  list(params: WebhookEndpointListParams = {}, options?: RequestOptions): PagePromise<WebhookEndpoint> {
    const query = { ...params };
    return new PagePromise((context) => this.#page(query, options, context), (next, nextOptions) =>
      this.list({ ...query, ...next }, nextOptions ?? options),
    );
  }

  /**
   * Gives the endpoint a new secret (`POST /api/webhook_endpoints/{id}/rotate_secret`), answered this once; the old
   * one keeps signing for `overlap_seconds` (24 hours by default). Not retried (each call makes a new secret).
   * @example
   * const { secret } = await client.webhookEndpoints.rotateSecret(id, { overlap_seconds: 3600 });
   */
  rotateSecret(id: string, body?: WebhookSecretRotation, options?: RequestOptions): APIPromise<CreatedWebhookEndpoint> {
    return this.#call(
      { method: 'POST', path: '/api/webhook_endpoints/{id}/rotate_secret', params: { path: { id } }, ...(body ? { body } : {}) },
      options,
    );
  }

  /**
   * Queues the endpoint's events since a time again (`POST /api/webhook_endpoints/{id}/replay`), at most 1000 per
   * request: repeat with `cursor: result.next_cursor` while `has_more`.
   * @example
   * let result = await client.webhookEndpoints.replay(id, { since: outageStart.toISOString(), only_undelivered: true });
   * while (result.has_more) result = await client.webhookEndpoints.replay(id, { since: outageStart.toISOString(), only_undelivered: true, cursor: result.next_cursor! });
   */
  replay(id: string, body: WebhookReplay, options?: RequestOptions): APIPromise<WebhookReplayResult> {
    return this.#call({ method: 'POST', path: '/api/webhook_endpoints/{id}/replay', params: { path: { id } }, body }, options);
  }

  #page(query: WebhookEndpointListParams, options: RequestOptions | undefined, context: CallContext) {
    return this.#send<CursorPageBody<WebhookEndpoint>>(options, { method: 'GET', path: '/api/webhook_endpoints', params: { query } }, context);
  }
}
