import type { RequestOptions } from '../client';
import { type Answer, APIPromise, type CallContext } from './api-promise';
import { slowPath } from '../internal/slow-path';

/** The most items {@link PagePromise.toArray} collects. */
export const TO_ARRAY_MAX = 10_000;

/** The body of one page of a cursor-paginated list, as the API sends it. */
export interface CursorPageBody<Item> {
  /** This page's items, newest first. */
  data: Item[];
  /** Whether another page follows. */
  has_more: boolean;
  /** Pass as `cursor` (with the same filters) for the next page; `null` on the last page. */
  next_cursor: string | null;
}

/** What {@link CursorPage.getNextPage} may change for the next page: only its size. */
export interface NextPageParams {
  /** Page size of the next page (and of the pages after it), 1 to 100. */
  limit?: number | undefined;
}

/** @internal Requests the page after this one: the same filters with `cursor` (and maybe a new `limit`). */
export type NextPageRequest<Item> = (
  next: { cursor: string; limit?: number },
  options: RequestOptions | undefined,
) => PagePromise<Item>;

/**
 * One page of a list: the API's own `data`, `has_more` and `next_cursor`, plus helpers to get the pages after it.
 * Iterating a page (`for await`) yields its items and then those of every following page.
 *
 * @example
 * let page = await client.customers.list({ status: 'active', limit: 50 });
 * console.log(page.data.length, page.has_more);
 * while (page.hasNextPage()) page = await page.getNextPage();
 */
export class CursorPage<Item> implements CursorPageBody<Item> {
  // `declare`d, as in the classes below: the constructor assigns them, so no separate field initializers are
  // emitted (bundle bytes); the own properties and their order are the same.
  declare data: Item[];
  declare has_more: boolean;
  declare next_cursor: string | null;
  readonly #next: NextPageRequest<Item>;

  /** @internal Pages come from list methods. */
  constructor(body: CursorPageBody<Item>, next: NextPageRequest<Item>) {
    this.data = body.data;
    this.has_more = body.has_more;
    this.next_cursor = body.next_cursor;
    this.#next = next;
  }

  /** Whether another page follows (`has_more` with a `next_cursor`). */
  hasNextPage(): boolean {
    return this.has_more && this.next_cursor !== null;
  }

  /**
   * Requests the next page: the same filters and request options, with `cursor: next_cursor`. Pass a `limit` to
   * change the page size from here on, or `options` to replace the request options of this and later pages.
   * @throws Error (synchronously) when there is no next page: check {@link hasNextPage} first.
   * @example
   * const first = await client.customers.list({ limit: 10 });
   * if (first.hasNextPage()) {
   *   const second = await first.getNextPage({ limit: 50 });
   * }
   */
  getNextPage(params: NextPageParams = {}, options?: RequestOptions): PagePromise<Item> {
    const cursor = this.next_cursor;
    if (!this.has_more || cursor === null) {
      throw new Error('This is the last page (has_more is false): check hasNextPage() before calling getNextPage().');
    }
    return this.#next(params.limit === undefined ? { cursor } : { cursor, limit: params.limit }, options);
  }

  /**
   * This page, then every following page, one request per page.
   * @example
   * for await (const page of (await client.customers.list({ limit: 100 })).iterPages()) {
   *   await saveBatch(page.data);
   * }
   */
  async *iterPages(): AsyncGenerator<CursorPage<Item>, void, undefined> {
    let page: CursorPage<Item> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  /** The items of this page, then those of every following page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/**
 * What list methods return: an {@link APIPromise} of the first {@link CursorPage} (await it, or call
 * `.withResponse()` / `.result()`), which is also an async iterable over every item of every page.
 * The first request starts when the method is called; each later page is requested when iteration reaches it.
 *
 * @example
 * const page = await client.customers.list({ limit: 50 });
 * for await (const customer of client.customers.list({ status: 'active' })) {
 *   console.log(customer.email);
 * }
 */
export class PagePromise<Item> extends APIPromise<CursorPage<Item>> implements AsyncIterable<Item> {
  /** @internal */
  constructor(start: (context: CallContext) => Promise<Answer<unknown>>, next: NextPageRequest<Item>) {
    super(start, (body: CursorPageBody<Item>) => new CursorPage(body, next));
  }

  /**
   * The items of this page and the following ones, at most `limit` of them (1 to 10,000): pages are requested
   * one after the other until `limit` items are collected or the last page arrived, never one more. `limit` is
   * required, so a list that grows cannot silently fill memory; page through with `for await` beyond 10,000.
   * @throws TypeError (as a rejection) when `limit` is not an integer from 1 to 10,000.
   * @example
   * const recent = await client.customers.list({ status: 'active', limit: 100 }).toArray({ limit: 500 });
   */
  async toArray(options: { limit: number }): Promise<Item[]> {
    // Plain JavaScript may call it without options: say what is missing rather than fail to destructure.
    const limit = (options as { limit?: unknown } | undefined)?.limit as number;
    if (!Number.isInteger(limit) || limit < 1 || limit > TO_ARRAY_MAX) {
      this.catch(() => {}); // the first page's failure is not the caller's concern now: no unhandled rejection
      // The texts load with the other failure texts (error-hints.ts), on first use.
      const { toArrayLimitText } = await slowPath();
      throw new TypeError(toArrayLimitText(limit, TO_ARRAY_MAX));
    }
    const items: Item[] = [];
    for await (const page of (await this).iterPages()) {
      items.push(...page.data.slice(0, limit - items.length));
      if (items.length === limit) break;
    }
    return items;
  }

  /** Every item of every page, starting with the first page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    yield* await this;
  }
}
