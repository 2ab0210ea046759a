// Settings → Webhooks → one endpoint (/dashboard/settings/webhooks/{id}): its state and success rate, edit,
// disable/enable, reveal and rotate its secret, delete, test events with their payload, and its deliveries
// (filters, search, pages, resend all failed since) opening to their request and attempts. Plain DOM, data
// from /dashboard/api/webhooks/{id} (openapi.dashboard.yaml); text is only ever set with textContent.

import { call, client, type paths, type Schemas } from '../api.js';
import { modeQuery, withMode } from '../mode.js';
import { $, act, announce, clearFieldErrors, showFieldError, confirmAction, copyValue, dateTime, element, form, input, select, showError, signOut, timeCell, timeElement as time } from '../dom.js';

type Endpoint = Schemas['WebhookEndpointDetail'];
type Delivery = Schemas['WebhookDelivery'];
type EventType = Schemas['EventType'];
type DeliveryQuery = NonNullable<paths['/dashboard/api/webhooks/{id}/deliveries']['get']['parameters']['query']>;

const STATE_LABELS: Record<Schemas['WebhookDeliveryStatus'], string> = { pending: 'Pending', retrying: 'Retrying', delivered: 'Delivered', failed: 'Failed', skipped: 'Skipped' };
/** While a listed delivery is still on its way, the list is read again after this long. */
const REFRESH_MS = 2000;
const PAGE_SIZE = 20;

const endpointId = decodeURIComponent(window.location.pathname.split('/').pop() ?? '');
const path = { id: endpointId };
let endpoint: Endpoint | null = null;
let cursor: string | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let shownEvent: string | null = null;

/**
 * A long value shortened in the middle for the eye ("evt_0c9d…6e5f"), whole for screen readers, search and
 * copying (the middle stays inline text at font size 0, so accessible names hold the value unbroken), and
 * whole on hover.
 */
function shortened(text: string, { head = 10, tail = 6 } = {}): HTMLElement {
  const node = element('code', { className: 'short', attrs: { title: text } });
  if (text.length <= head + tail + 1) {
    node.textContent = text;
    return node;
  }
  node.append(
    text.slice(0, head),
    element('span', { text: '…', attrs: { 'aria-hidden': 'true' } }),
    element('span', { text: text.slice(head, text.length - tail), className: 'elided' }),
    text.slice(text.length - tail),
  );
  return node;
}

/**
 * Disabled, failing or active, said in words on the page by the API's one health rule (`health`: failing as soon as
 * the last 5 attempts failed or an hour went by without a success), with the last success and the next retry.
 */
function endpointState(current: Endpoint): [string, string, string] {
  if (current.disabled) return ['Disabled', 'disabled', `since ${since(current.disabled_at)}: nothing is sent to it until you enable it.`];
  const lastSuccess = current.last_succeeded_at ? `last success ${since(current.last_succeeded_at)}` : 'no attempt has succeeded yet';
  const nextRetry = current.next_retry_at ? `next retry ${since(current.next_retry_at)}` : 'nothing waits to be retried';
  if (current.health === 'failing' || current.failing) return ['Failing', 'failing', `Its recent attempts failed: ${lastSuccess}; ${nextRetry}.`];
  return ['Active', 'active', 'Events are sent to it as they happen.'];
}

function since(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : 'a while';
}

function rate(value: Schemas['SuccessRate']): string {
  if (value.rate === null) return 'No attempts';
  return `${Math.round(value.rate * 1000) / 10}% (${value.succeeded} of ${value.attempts} attempts)`;
}

function current(): Endpoint {
  if (!endpoint) throw new Error('The endpoint is still loading.');
  return endpoint;
}

function renderEndpoint(shown: Endpoint): void {
  endpoint = shown;
  $('page-title').replaceChildren('Endpoint ', shortened(shown.url, { head: 24, tail: 12 }));
  document.title = `${shown.url} · Webhooks · Customers API`;
  const [label, kind, text] = endpointState(shown);
  $('state-badge').textContent = label;
  $('state-badge').className = `badge badge-${kind}`;
  $('state-text').textContent = text;
  $('endpoint-url').textContent = shown.url;
  $('endpoint-description').textContent = shown.description || '—';
  $('endpoint-events').replaceChildren(...shown.events.flatMap((type, i) => [...(i ? [' '] : []), element('code', { text: type })]));
  $('endpoint-created').replaceChildren(time(shown.created_at));
  $('rate-24h').textContent = rate(shown.success_rates.last_24h);
  $('rate-7d').textContent = rate(shown.success_rates.last_7d);
  $('last-success').textContent = shown.last_succeeded_at ? since(shown.last_succeeded_at) : 'Never';
  $('next-retry').textContent = shown.next_retry_at ? since(shown.next_retry_at) : 'None waiting';
  $('toggle-enabled').textContent = shown.disabled ? 'Enable' : 'Disable';
  const types = select('test-type');
  const chosen = types.value;
  types.replaceChildren(...shown.events.map((type) => element('option', { text: type, attrs: { value: type } })));
  if (shown.events.includes(chosen as EventType)) types.value = chosen;
  for (const id of ['overview', 'test-card', 'deliveries-card']) $(id).hidden = false;
}

async function loadEndpoint(): Promise<void> {
  renderEndpoint(await call(client.GET('/dashboard/api/webhooks/{id}', { params: { path, query: modeQuery() } })));
}

function filterQuery(): DeliveryQuery {
  const query: DeliveryQuery = { limit: PAGE_SIZE };
  const state = select('filter-state').value;
  if (state !== 'all') query.state = state as DeliveryQuery['state'];
  const type = select('filter-type').value;
  if (type) query.event_type = type as EventType;
  const eventId = input('filter-event').value.trim();
  if (eventId) query.event_id = eventId;
  return query;
}

function deliveryRow(delivery: Delivery): HTMLTableRowElement {
  const link = element('a', { className: 'delivery-link', attrs: { href: withMode(`${window.location.pathname}?delivery=${delivery.event_id}`) } }, [
    element('code', { text: delivery.event_type }),
    ' ',
    shortened(delivery.event_id, { head: 8, tail: 4 }),
  ]);
  link.addEventListener('click', (event) => {
    event.preventDefault();
    openDelivery(delivery.event_id).catch(showError);
  });
  const response = delivery.last_status_code !== null
    ? element('code', { text: `HTTP ${delivery.last_status_code}` })
    : element('span', { text: delivery.attempts === 0 ? '—' : (delivery.last_error ?? 'No answer'), className: 'muted clip', attrs: { title: delivery.last_error ?? '' } });
  // The delivery open in the detail below is marked in the list (also when the list is read again).
  const marked: Record<string, string> = delivery.event_id === shownEvent ? { 'aria-current': 'true' } : {};
  return element('tr', { attrs: { 'data-event-id': delivery.event_id, ...marked } }, [
    element('th', { attrs: { scope: 'row', 'data-label': 'Event' } }, [link]),
    element('td', { attrs: { 'data-label': 'State' } }, [element('span', { text: STATE_LABELS[delivery.status], className: `badge badge-${delivery.status}` })]),
    element('td', { attrs: { 'data-label': 'Response' } }, [response]),
    element('td', { text: String(delivery.attempts), attrs: { 'data-label': 'Attempts' } }),
    timeCell('Last attempt', delivery.last_attempt_at, 'not yet'),
  ]);
}

async function loadDeliveries({ append = false } = {}): Promise<void> {
  clearTimeout(refreshTimer);
  const query = filterQuery();
  if (append && cursor) query.cursor = cursor;
  const page = await call(client.GET('/dashboard/api/webhooks/{id}/deliveries', { params: { path, query: { ...query, ...modeQuery() } } }));
  const rows = page.deliveries.map(deliveryRow);
  // A refresh replaces the rows: focus on a row's link stays on that delivery's new link, not on <body>.
  const focusedId = document.activeElement?.closest<HTMLTableRowElement>('#deliveries-body tr')?.dataset.eventId;
  if (append) $('deliveries-body').append(...rows);
  else $('deliveries-body').replaceChildren(...rows);
  if (focusedId && !append) rowOf(focusedId)?.querySelector<HTMLElement>('a')?.focus();
  cursor = page.next_cursor;
  $('more').hidden = cursor === null;
  const none = $('deliveries-body').children.length === 0;
  $('endpoint-deliveries').hidden = none;
  $('deliveries-empty').hidden = !none;
  // Keep the first page current while something on it is on its way.
  if (!append && page.deliveries.some((d) => d.status === 'pending' || d.status === 'retrying')) {
    refreshTimer = setTimeout(() => Promise.all([loadDeliveries(), shownEvent ? openDelivery(shownEvent, { focus: false }) : null]).catch(showError), REFRESH_MS);
  }
}

function attemptItem(attempt: Schemas['DeliveryAttempt']): HTMLLIElement {
  const result = attempt.status_code !== null ? `HTTP ${attempt.status_code}` : (attempt.error ?? 'No answer');
  const item = element('li', { className: 'attempt' }, [
    element('p', { className: 'attempt-line' }, [
      element('strong', { text: `Attempt ${attempt.attempt}` }), ' · ', time(attempt.attempted_at), ` · ${attempt.duration_ms} ms · `,
      element('span', { text: result, className: attempt.status_code !== null && attempt.status_code < 300 ? 'ok' : 'bad' }),
    ]),
  ]);
  // The answer's headers (bounded and redacted by the server), before its body, as the receiver sent them.
  const headers = Object.entries(attempt.response_headers ?? {});
  if (headers.length > 0) {
    item.append(element('dl', { className: 'facts headers', attrs: { 'aria-label': `Response headers of attempt ${attempt.attempt}` } },
      headers.flatMap(([name, value]) => [element('dt', {}, [element('code', { text: name })]), element('dd', {}, [element('code', { text: value })])])));
  }
  if (attempt.response_body) {
    item.append(element('pre', { text: attempt.response_body, className: 'payload', attrs: { tabindex: '0', 'aria-label': `Response body of attempt ${attempt.attempt}` } }));
  }
  return item;
}

async function openDelivery(eventId: string, { focus = true } = {}): Promise<void> {
  const detail = await call(client.GET('/dashboard/api/webhooks/{id}/deliveries/{event_id}', { params: { path: { ...path, event_id: eventId }, query: modeQuery() } }));
  shownEvent = eventId;
  const url = new URL(window.location.href);
  url.searchParams.set('delivery', eventId);
  window.history.replaceState(null, '', url);
  $('detail-event').textContent = detail.event_id;
  $('detail-badge').textContent = STATE_LABELS[detail.status];
  $('detail-badge').className = `badge badge-${detail.status}`;
  $('detail-summary').textContent = `${detail.event_type}, ${detail.attempts} attempt${detail.attempts === 1 ? '' : 's'} since queued or resent`;
  $('detail-request-line').textContent = `${detail.request.method} ${detail.request.url}`;
  $('detail-headers').replaceChildren(...Object.entries(detail.request.headers).flatMap(([name, value]) => [
    element('dt', {}, [element('code', { text: name })]),
    element('dd', {}, [element('code', { text: String(value), className: 'wrap-anywhere' })]),
  ]));
  $('detail-body').textContent = JSON.stringify(JSON.parse(detail.request.body), null, 2);
  $('detail-attempts').replaceChildren(...detail.attempts_made.map(attemptItem));
  $('detail-no-attempts').hidden = detail.attempts_made.length !== 0;
  $('detail').hidden = false;
  markRow(eventId);
  if (focus) $('detail').focus();
}

/** The list's row of a delivery, if it is on the pages shown. */
function rowOf(eventId: string): HTMLTableRowElement | undefined {
  return [...$('deliveries-body').querySelectorAll<HTMLTableRowElement>('tr')].find((tr) => tr.dataset.eventId === eventId);
}

function markRow(eventId: string | null): void {
  for (const tr of $('deliveries-body').querySelectorAll('tr[aria-current]')) tr.removeAttribute('aria-current');
  if (eventId) rowOf(eventId)?.setAttribute('aria-current', 'true');
}

/** Closes the detail (Close or Escape) and gives focus back to the link it was opened from. */
function closeDelivery(): void {
  const closed = shownEvent;
  shownEvent = null;
  $('detail').hidden = true;
  markRow(null);
  const url = new URL(window.location.href);
  url.searchParams.delete('delivery');
  window.history.replaceState(null, '', url);
  // The row may be gone (filtered away, another page): then the list's card, made focusable for it.
  const link = closed ? rowOf(closed)?.querySelector<HTMLElement>('a') : undefined;
  const card = $('deliveries-card');
  if (!link) card.tabIndex = -1;
  (link ?? card).focus();
}

function showSecret(secret: string, note: string): void {
  input('secret-value').value = secret;
  $('secret-note').textContent = note;
  $('copy-secret').textContent = 'Copy';
  $('secret').hidden = false;
  $('secret').focus();
}

const editFields = () => ({ url: input('edit-url'), description: input('edit-description'), events: $('edit-events') });

function openEdit(): void {
  const shown = current();
  clearFieldErrors(editFields());
  input('edit-url').value = shown.url;
  input('edit-description').value = shown.description ?? '';
  for (const box of form('edit-form').querySelectorAll<HTMLInputElement>('input[name="events"]')) box.checked = shown.events.includes(box.value as EventType);
  $('edit-card').hidden = false;
  $('edit-url').focus();
}

async function saveEdit(event: Event): Promise<void> {
  event.preventDefault();
  const fields = editFields();
  clearFieldErrors(fields);
  const events = [...form('edit-form').querySelectorAll<HTMLInputElement>('input[name="events"]:checked')].map((box) => box.value as EventType);
  try {
    await call(client.PATCH('/dashboard/api/webhooks/{id}', { params: { path, query: modeQuery() }, body: { url: input('edit-url').value, description: input('edit-description').value, events } }));
    $('edit-card').hidden = true;
    await loadEndpoint();
    announce('Endpoint saved.');
  } catch (error) {
    // The message names the property first (url, events, description): shown beside that field.
    if (!showFieldError(error, fields)) showError(error);
  }
}

async function toggleEnabled(): Promise<void> {
  const shown = current();
  if (!shown.disabled) {
    const sure = await confirmAction(`Disable ${shown.url}?`, 'Nothing is sent to it, and no event is kept for it, until you enable it again.', 'Disable endpoint');
    if (!sure) return;
  }
  await act(async () => {
    if (shown.disabled) await call(client.POST('/dashboard/api/webhooks/{id}/enable', { params: { path, query: modeQuery() } }));
    else await call(client.POST('/dashboard/api/webhooks/{id}/disable', { params: { path, query: modeQuery() } }));
    await loadEndpoint();
    announce(current().disabled ? 'Endpoint disabled.' : 'Endpoint enabled: new events are sent to it again.');
  });
}

async function rotate(): Promise<void> {
  const sure = await confirmAction(
    `Rotate the secret of ${current().url}?`,
    'A new secret signs every request from now on. The current one also signs them for 24 hours, so you can update your receiver without missing events.',
    'Rotate secret',
  );
  if (!sure) return;
  await act(async () => {
    const rotated = await call(client.POST('/dashboard/api/webhooks/{id}/rotate-secret', { params: { path, query: modeQuery() } }));
    showSecret(rotated.secret, 'The new secret. The previous one also signs requests for 24 hours.');
    await loadEndpoint();
    announce('Secret rotated.');
  });
}

async function remove(): Promise<void> {
  const sure = await confirmAction(`Delete the endpoint ${current().url}?`, 'No more events are sent to it, pending retries included, and its delivery history is removed. This cannot be undone.', 'Delete endpoint');
  if (!sure) return;
  await act(async () => {
    await call(client.DELETE('/dashboard/api/webhooks/{id}', { params: { path, query: modeQuery() } }));
    window.location.assign(withMode('/dashboard/settings/webhooks'));
  });
}

async function previewTest(): Promise<void> {
  const type = select('test-type').value as EventType;
  if (!type) return;
  const payload = await call(client.GET('/dashboard/api/webhooks/{id}/test', { params: { path, query: { event_type: type, ...modeQuery() } } }));
  $('test-payload').textContent = JSON.stringify(payload, null, 2);
}

/** One "Resend all failed" request queues at most this many (openapi.dashboard.yaml, resendFailedWebhookDeliveries). */
const RESEND_CAP = 1000;

const deliveriesText = (count: number) => `${count.toLocaleString('en-GB')} failed deliver${count === 1 ? 'y' : 'ies'}`;

async function resendAllFailed(): Promise<void> {
  const option = select('resend-since').selectedOptions[0];
  if (!option) return;
  const since = new Date(Date.now() - Number(option.value)).toISOString();
  let counted: { count: number; more: boolean };
  try {
    // The server counts as the resend picks, bounded like it (countFailedWebhookDeliveries): at most 1,000, and `more`.
    counted = await call(client.GET('/dashboard/api/webhooks/{id}/resend-failed', { params: { path, query: { since, ...modeQuery() } } }));
  } catch (error) {
    showError(error);
    return;
  }
  if (counted.count === 0) {
    announce(`No failed deliveries since ${option.textContent}: nothing to resend.`);
    return;
  }
  // Sending again can be repeated and undoes nothing: the page's primary button, not a red one.
  const text = counted.more
    ? `The oldest ${deliveriesText(RESEND_CAP)} given up since ${option.textContent} are sent again, once (at most ${RESEND_CAP.toLocaleString('en-GB')} at a time; resend again for the rest).`
    : `${deliveriesText(counted.count)} given up since ${option.textContent} ${counted.count === 1 ? 'is' : 'are'} sent again, once.`;
  // Past the cap the count says so: "Resend 1,000+ failed deliveries?".
  const counts = counted.more ? `${RESEND_CAP.toLocaleString('en-GB')}+ failed deliveries` : deliveriesText(counted.count);
  const sure = await confirmAction(`Resend ${counts}?`, text, `Resend ${counts}`, { danger: false });
  if (!sure) return;
  await act(async () => {
    const { resent, more } = await call(client.POST('/dashboard/api/webhooks/{id}/resend-failed', { params: { path, query: modeQuery() }, body: { since } }));
    await loadDeliveries();
    // At most 1,000 per request (openapi.dashboard.yaml): the button sends the next ones.
    announce(`${resent} failed deliver${resent === 1 ? 'y' : 'ies'} queued again.${more ? ' More remain: resend again for the next ones.' : ''}`);
  });
}

$('sign-out').addEventListener('click', () => void signOut());
$('edit').addEventListener('click', openEdit);
$('edit-cancel').addEventListener('click', () => { $('edit-card').hidden = true; });
form('edit-form').addEventListener('submit', (event) => void saveEdit(event));
$('toggle-enabled').addEventListener('click', () => void toggleEnabled());
$('reveal').addEventListener('click', () => act(async () => {
  const { secret } = await call(client.POST('/dashboard/api/webhooks/{id}/reveal-secret', { params: { path, query: modeQuery() } }));
  showSecret(secret, 'Verify the webhook-signature header of each request with it. Revealing it is written to your Activity log.');
}));
$('copy-secret').addEventListener('click', () => void copyValue(input('secret-value'), $('copy-secret'), 'Secret'));
$('hide-secret').addEventListener('click', () => { input('secret-value').value = ''; $('secret').hidden = true; });
$('rotate').addEventListener('click', () => void rotate());
$('delete').addEventListener('click', () => void remove());
$('test-type').addEventListener('change', () => act(previewTest));
$('send-test').addEventListener('click', () => act(async () => {
  const delivery = await call(client.POST('/dashboard/api/webhooks/{id}/test', { params: { path, query: { event_type: select('test-type').value as EventType, ...modeQuery() } } }));
  await loadDeliveries();
  announce(`Test event ${delivery.event_id} queued.`);
}));
form('filters').addEventListener('submit', (event) => {
  event.preventDefault();
  void act(() => loadDeliveries());
});
for (const id of ['filter-state', 'filter-type']) $(id).addEventListener('change', () => act(() => loadDeliveries()));
$('more').addEventListener('click', () => act(() => loadDeliveries({ append: true })));
$('resend-failed').addEventListener('click', () => void resendAllFailed());
$('detail-close').addEventListener('click', closeDelivery);
// Escape closes the detail, unless a dialog (which Escape closes itself) is open.
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape' || $('detail').hidden || document.querySelector('dialog[open]')) return;
  event.preventDefault();
  closeDelivery();
});
$('detail-resend').addEventListener('click', () => act(async () => {
  const eventId = shownEvent;
  if (!eventId) return;
  await call(client.POST('/dashboard/api/webhooks/{id}/deliveries/{event_id}/resend', { params: { path: { ...path, event_id: eventId }, query: modeQuery() } }));
  await Promise.all([loadDeliveries(), openDelivery(eventId, { focus: false })]);
  announce(`${eventId} queued again.`);
}));

void act(async () => {
  await loadEndpoint();
  await Promise.all([loadDeliveries(), previewTest()]);
  const asked = new URLSearchParams(window.location.search).get('delivery');
  if (asked) await openDelivery(asked);
});
