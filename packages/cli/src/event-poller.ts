import type { CustomerEvent, EventListParams } from '@customers-api/sdk';

/** One walk of `GET /api/events` with these filters, every page, newest first (`client.events.list`). */
export type ListEvents = (params: EventListParams) => AsyncIterable<CustomerEvent>;

/**
 * How far back each poll looks before the newest event seen: an event is listed once its transaction commits,
 * and its `created_at` is the change's time, which can be a little earlier than the commit. Events inside the
 * window that were already forwarded are recognized by id.
 */
export const OVERLAP_MS = 10_000;

/**
 * Finds the events created since the session started, each once, oldest first, by polling the events list with a
 * `created_after` filter (one request per poll when quiet, more pages when busy).
 *
 * @example
 * const poller = new EventPoller((params) => client.events.list(params));
 * await poller.start();
 * for (const event of await poller.poll()) await forward(event);
 */
export class EventPoller {
  readonly #list: ListEvents;
  readonly #type: EventListParams['type'];
  /** The ids already handed out (or there at the start), by `created_at` in ms, kept for the overlap window. */
  readonly #seen = new Map<string, number>();
  #newest: number | undefined;

  constructor(list: ListEvents, options: { type?: EventListParams['type'] } = {}) {
    this.#list = list;
    this.#type = options.type;
  }

  /** Marks what exists now as seen: `listen` forwards only what happens after it starts. */
  async start(): Promise<void> {
    for await (const event of this.#list({ limit: 1, ...(this.#type && { type: this.#type }) })) {
      this.#newest = Date.parse(event.created_at);
      break;
    }
    if (this.#newest !== undefined) await this.#collect(); // everything in the overlap window is old
  }

  /** The events not handed out yet, oldest first. */
  async poll(): Promise<CustomerEvent[]> {
    return this.#collect();
  }

  async #collect(): Promise<CustomerEvent[]> {
    const after = this.#newest === undefined ? undefined : new Date(this.#newest - OVERLAP_MS);
    const fresh: CustomerEvent[] = [];
    const params: EventListParams = { limit: 100, ...(this.#type && { type: this.#type }), ...(after && { created_after: after }) };
    for await (const event of this.#list(params)) {
      if (this.#seen.has(event.id)) continue;
      const at = Date.parse(event.created_at);
      this.#seen.set(event.id, at);
      this.#newest = Math.max(this.#newest ?? at, at);
      fresh.push(event);
    }
    // The list is newest first (created_at, then id, descending): reversed, the oldest goes out first.
    fresh.reverse();
    if (this.#newest !== undefined) {
      const horizon = this.#newest - OVERLAP_MS;
      for (const [id, at] of this.#seen) if (at < horizon) this.#seen.delete(id);
    }
    return fresh;
  }
}
