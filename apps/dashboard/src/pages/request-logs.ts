// Settings → Request logs: the requests the seller's API keys made (/dashboard/api/request-logs), newest first,
// filtered and paged, each opening to its detail with the error body. Follows the page's test/live mode.

import { byId, call, client, type paths, type Schemas } from '../api.js';
import { $, act, clearFieldErrors, element, input, select, showError, showFieldError, signOut, timeCell, timeElement } from '../dom.js';
import { currentMode, modeQuery } from '../mode.js';
import { pagedList } from '../paged-list.js';

type Log = Schemas['RequestLog'];
type Query = NonNullable<paths['/dashboard/api/request-logs']['get']['parameters']['query']>;

const fields = { request_id: input('filter-request-id'), path: input('filter-path') };

/** The filters as the form holds them (empty ones left out), in the page's mode. */
function filters(): Query {
  const query: Query = { mode: currentMode() };
  const requestId = fields.request_id.value.trim();
  if (requestId) query.request_id = requestId;
  const status = select('filter-status').value as Query['status_class'] | '';
  if (status) query.status_class = status;
  const method = select('filter-method').value as Query['method'] | '';
  if (method) query.method = method;
  const keyId = select('filter-key').value;
  if (keyId) query.key_id = keyId;
  const path = fields.path.value.trim();
  if (path) query.path = path;
  const since = select('filter-since').value;
  if (since) query.since = new Date(Date.now() - Number(since)).toISOString();
  return query;
}

const keyText = (log: Log) => (log.key_name ? `${log.key_name} (${log.key_prefix ?? ''}…)` : log.key_prefix ? `${log.key_prefix}…` : 'Deleted key');

function logRow(log: Log): HTMLTableRowElement {
  const open = element('button', { className: 'link-button', attrs: { type: 'button', 'aria-label': `${log.method} ${log.path}, ${log.status}: details` } }, [
    element('code', { text: `${log.method} ${log.path}` }),
  ]);
  open.addEventListener('click', () => void openDetail(log.id, open));
  const failed = log.status >= 400;
  return element('tr', {}, [
    element('th', { attrs: { scope: 'row', 'data-label': 'Request' } }, [open]),
    element('td', { attrs: { 'data-label': 'Status' } }, [element('span', { text: String(log.status), className: `badge ${failed ? 'badge-failed' : 'badge-delivered'}` })]),
    timeCell('When', log.occurred_at, ''),
    element('td', { text: keyText(log), attrs: { 'data-label': 'Key' } }),
    element('td', { attrs: { 'data-label': 'Request id' } }, [element('code', { text: log.request_id })]),
  ]);
}

const list = pagedList<Query, Log>({
  fetch: async (query, cursor) => {
    const page = await call(client.GET('/dashboard/api/request-logs', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } }));
    return { rows: page.request_logs, next_cursor: page.next_cursor };
  },
  render: logRow,
  ids: { body: 'logs-body', shown: 'logs-table', empty: 'logs-empty', more: 'more' },
  focus: (row) => row.querySelector('button')?.focus(),
}, { mode: currentMode() });

/** The most pages of keys the Key filter lists (100 each): far beyond any seller's keys of one mode. */
const KEY_PAGES_MAX = 10;

/** The Key filter's choices: the seller's keys of the page's mode (revoked ones too: their requests stay), by name and prefix. */
async function loadKeys(): Promise<void> {
  const choices: HTMLOptionElement[] = [];
  let keyCursor: string | undefined;
  for (let pages = 0; pages < KEY_PAGES_MAX; pages += 1) {
    const page = await call(client.GET('/dashboard/api/keys', { params: { query: { ...modeQuery(), ...(keyCursor ? { cursor: keyCursor } : {}) } } }));
    for (const key of page.keys) choices.push(element('option', { text: `${key.name} (${key.prefix}…)`, attrs: { value: key.id } }));
    if (page.next_cursor === null) break;
    keyCursor = page.next_cursor;
  }
  select('filter-key').append(...choices);
}

/** Where focus goes back to when the detail closes. */
let opener: HTMLElement | null = null;

async function openDetail(id: string, from: HTMLElement): Promise<void> {
  await act(async () => {
    const log = await call(client.GET('/dashboard/api/request-logs/{id}', byId(id)));
    opener = from;
    $('detail-title').textContent = `${log.method} ${log.path}`;
    $('detail-status').replaceChildren(element('span', { text: String(log.status), className: `badge ${log.status >= 400 ? 'badge-failed' : 'badge-delivered'}` }));
    $('detail-time').replaceChildren(timeElement(log.occurred_at));
    $('detail-duration').textContent = `${log.duration_ms} ms`;
    $('detail-key').textContent = keyText(log);
    $('detail-request-id').textContent = log.request_id;
    $('detail-version').textContent = log.api_version ?? '—';
    $('detail-error').textContent = log.error_body === null ? 'No error: the request succeeded.' : JSON.stringify(log.error_body, null, 2);
    $('detail-body').textContent = log.request_body === null || log.request_body === undefined ? 'No body.' : JSON.stringify(log.request_body, null, 2);
    for (const row of $('logs-body').querySelectorAll('tr')) row.removeAttribute('aria-current');
    from.closest('tr')?.setAttribute('aria-current', 'true');
    $('detail').hidden = false;
    $('detail').focus();
  });
}

function closeDetail(): void {
  $('detail').hidden = true;
  for (const row of $('logs-body').querySelectorAll('tr')) row.removeAttribute('aria-current');
  opener?.focus();
}

$('sign-out').addEventListener('click', () => void signOut());
$('more').addEventListener('click', () => void act(() => list.more()));
$('detail-close').addEventListener('click', closeDetail);
$('detail').addEventListener('keydown', (event) => {
  if (event.key === 'Escape') closeDetail();
});
$('filters').addEventListener('submit', (event) => {
  event.preventDefault();
  clearFieldErrors(fields);
  void list.load(filters()).catch((error: unknown) => {
    if (!showFieldError(error, fields)) showError(error);
  });
});
// A link from elsewhere (`?request_id=`) opens on that request.
const linked = new URLSearchParams(window.location.search).get('request_id');
if (linked) fields.request_id.value = linked;
void act(() => Promise.all([loadKeys(), list.load(filters())]));
