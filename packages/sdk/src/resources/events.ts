import { APIPromise, type CallContext } from '../core/api-promise';
import { type CursorPageBody, PagePromise } from '../core/pagination';
import type { RequestOptions, Send } from '../client';
import type { CustomerEvent } from '../webhooks/customer-event';
import { type EventListParams, eventListQuery } from './webhook-endpoint-types';

type EventListQuery = ReturnType<typeof eventListQuery>;

/** Read the seller's change events of the last 30 days, in the client's API version. Reach it as `client.events`. */
export class Events {
  readonly #send: Send;

  /** @internal Use `client.events`. */
  constructor(send: Send) {
    this.#send = send;
  }

  /**
   * Lists events, newest first (`GET /api/events`); `for await` walks every page. `undelivered_to` gives the events
   * an endpoint has not acknowledged: the list to catch up on after downtime.
   * @example
   * for await (const event of client.events.list({ undelivered_to: endpointId })) await handleOnce(event);
   */
  list(params: EventListParams = {}, options?: RequestOptions): PagePromise<CustomerEvent> {
    const query = eventListQuery(params);
    return new PagePromise((context) => this.#page(query, options, context), (next, nextOptions) =>
      this.list({ ...query, ...next }, nextOptions ?? options),
    );
  }

  /**
   * Gets an event by id (`GET /api/events/{id}`): the `id` of a delivered body, its `webhook-id`.
   * @throws NotFoundError when the seller has no such event (or it is older than 30 days).
   * @example
   * const event = await client.events.get(request.headers['webhook-id']);
   */
  get(id: string, options?: RequestOptions): APIPromise<CustomerEvent> {
    return new APIPromise((context) =>
      this.#send(options, { method: 'GET', path: '/api/events/{id}', params: { path: { id } } }, context),
    );
  }

  #page(query: EventListQuery, options: RequestOptions | undefined, context: CallContext) {
    return this.#send<CursorPageBody<CustomerEvent>>(options, { method: 'GET', path: '/api/events', params: { query } }, context);
  }
}
