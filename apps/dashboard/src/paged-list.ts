// The newest-first lists of the Events, Request logs and Customers pages load the same way: a page of rows for the
// query (replacing what is shown), "Load more" appending the next page with the cursor, the empty state and the
// button following what is listed, and focus moving to the first appended row for a keyboard user.

import { $ } from './dom.js';

/** One page of the API's answer: its rows and the cursor of the next page (null after the last). */
export interface Page<Row> {
  rows: Row[];
  next_cursor: string | null;
}

export interface PagedListOptions<Query, Row> {
  /** Fetches a page for the query, after `cursor` when one is given. */
  fetch: (query: Query, cursor: string | undefined) => Promise<Page<Row>>;
  /** A row's element. */
  render: (row: Row) => HTMLElement;
  /** Ids in the page's HTML: what holds the rows, what is hidden when none are listed, the empty state, "Load more". */
  ids: { body: string; shown: string; empty: string; more: string };
  /** Moves focus into the first row "Load more" appended. */
  focus: (row: HTMLElement) => void;
}

export interface PagedList<Query> {
  /** Lists the first page for `query` (the last query when omitted), replacing what is shown. */
  load(query?: Query): Promise<void>;
  /** Appends the next page of the last query. */
  more(): Promise<void>;
}

/**
 * @example
 * const list = pagedList<Query, Log>({
 *   fetch: async (query, cursor) => {
 *     const page = await call(client.GET('/dashboard/api/request-logs', { params: { query: { ...query, cursor } } }));
 *     return { rows: page.request_logs, next_cursor: page.next_cursor };
 *   },
 *   render: logRow,
 *   ids: { body: 'logs-body', shown: 'logs-table', empty: 'logs-empty', more: 'more' },
 *   focus: (row) => row.querySelector('button')?.focus(),
 * }, { mode: 'live' });
 * $('more').addEventListener('click', () => void act(() => list.more()));
 */
export function pagedList<Query, Row>(options: PagedListOptions<Query, Row>, initial: Query): PagedList<Query> {
  let query = initial;
  let cursor: string | null = null;

  async function show(append: boolean): Promise<void> {
    const page = await options.fetch(query, append && cursor !== null ? cursor : undefined);
    const rows = page.rows.map(options.render);
    const body = $(options.ids.body);
    if (append) body.append(...rows);
    else body.replaceChildren(...rows);
    cursor = page.next_cursor;
    $(options.ids.more).hidden = cursor === null;
    const none = body.children.length === 0;
    $(options.ids.shown).hidden = none;
    $(options.ids.empty).hidden = !none;
    if (append && rows[0]) options.focus(rows[0]);
  }

  return {
    load(next?: Query) {
      if (next !== undefined) query = next;
      return show(false);
    },
    more: () => show(true),
  };
}
