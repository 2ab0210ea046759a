// Settings → Webhooks → one endpoint (/dashboard/settings/webhooks/{id}): its state and success rate, edit,
// disable/enable, reveal and rotate its secret, delete, test events with their payload, and its deliveries
// (filters, search, pages, resend all failed since) opening to their request and attempts. Plain DOM, data
// from /dashboard/api/webhooks/{id} (openapi.dashboard.yaml); text is only ever set with textContent.

import { $, announce, api, clearError, confirmAction, copyValue, dateTime, element, showError, signOut, timeCell, timeElement as time } from './common.js';

const STATE_LABELS = { pending: 'Pending', retrying: 'Retrying', delivered: 'Delivered', failed: 'Failed', skipped: 'Skipped' };
/** While a listed delivery is still on its way, the list is read again after this long. */
const REFRESH_MS = 2000;
const PAGE_SIZE = 20;

const endpointId = decodeURIComponent(window.location.pathname.split('/').pop() ?? '');
const base = `/webhooks/${encodeURIComponent(endpointId)}`;
let endpoint = null;
let cursor = null;
let refreshTimer;
let shownEvent = null;

/**
 * A long value shortened in the middle for the eye ("evt_0c9d…6e5f"), whole for screen readers, search and
 * copying (the middle stays inline text at font size 0, so accessible names hold the value unbroken), and
 * whole on hover.
 */
function shortened(text, { head = 10, tail = 6, tag = 'code', className = '' } = {}) {
  const node = element(tag, { className: `short ${className}`.trim(), attrs: { title: text } });
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

/** Disabled, failing (since when) or active, said in words on the page. */
function endpointState(current) {
  if (current.disabled) return ['Disabled', 'disabled', `since ${dateTime.format(new Date(current.disabled_at))}: nothing is sent to it until you enable it.`];
  if (current.failing) return ['Failing', 'failing', `since ${dateTime.format(new Date(current.failing_since))}: a delivery was given up after every retry; the next successful one clears this.`];
  return ['Active', 'active', 'Events are sent to it as they happen.'];
}

function rate(value) {
  if (value.rate === null) return 'No attempts';
  return `${Math.round(value.rate * 1000) / 10}% (${value.succeeded} of ${value.attempts} attempts)`;
}

function renderEndpoint(current) {
  endpoint = current;
  $('page-title').replaceChildren('Endpoint ', shortened(current.url, { head: 24, tail: 12 }));
  document.title = `${current.url} · Webhooks · Customers API`;
  const [label, kind, text] = endpointState(current);
  $('state-badge').textContent = label;
  $('state-badge').className = `badge badge-${kind}`;
  $('state-text').textContent = text;
  $('endpoint-url').textContent = current.url;
  $('endpoint-description').textContent = current.description || '—';
  $('endpoint-events').replaceChildren(...current.events.flatMap((type, i) => [...(i ? [' '] : []), element('code', { text: type })]));
  $('endpoint-created').replaceChildren(time(current.created_at));
  $('rate-24h').textContent = rate(current.success_rates.last_24h);
  $('rate-7d').textContent = rate(current.success_rates.last_7d);
  $('toggle-enabled').textContent = current.disabled ? 'Enable' : 'Disable';
  const types = $('test-type');
  const chosen = types.value;
  types.replaceChildren(...current.events.map((type) => element('option', { text: type, attrs: { value: type } })));
  if (current.events.includes(chosen)) types.value = chosen;
  for (const id of ['overview', 'test-card', 'deliveries-card']) $(id).hidden = false;
}

async function loadEndpoint() {
  renderEndpoint(await api('GET', base));
}

function filterQuery() {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  const state = $('filter-state').value;
  if (state !== 'all') params.set('state', state);
  if ($('filter-type').value) params.set('event_type', $('filter-type').value);
  const eventId = $('filter-event').value.trim();
  if (eventId) params.set('event_id', eventId);
  return params;
}

function deliveryRow(delivery) {
  const link = element('a', { className: 'delivery-link', attrs: { href: `?delivery=${delivery.event_id}` } }, [
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
  return element('tr', { attrs: { 'data-event-id': delivery.event_id } }, [
    element('th', { attrs: { scope: 'row', 'data-label': 'Event' } }, [link]),
    element('td', { attrs: { 'data-label': 'State' } }, [element('span', { text: STATE_LABELS[delivery.status], className: `badge badge-${delivery.status}` })]),
    element('td', { attrs: { 'data-label': 'Response' } }, [response]),
    element('td', { text: String(delivery.attempts), attrs: { 'data-label': 'Attempts' } }),
    timeCell('Last attempt', delivery.last_attempt_at, 'not yet'),
  ]);
}

async function loadDeliveries({ append = false } = {}) {
  clearTimeout(refreshTimer);
  const params = filterQuery();
  if (append && cursor) params.set('cursor', cursor);
  const page = await api('GET', `${base}/deliveries?${params}`);
  const rows = page.deliveries.map(deliveryRow);
  if (append) $('deliveries-body').append(...rows);
  else $('deliveries-body').replaceChildren(...rows);
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

function attemptItem(attempt) {
  const result = attempt.status_code !== null ? `HTTP ${attempt.status_code}` : attempt.error;
  const item = element('li', { className: 'attempt' }, [
    element('p', { className: 'attempt-line' }, [
      element('strong', { text: `Attempt ${attempt.attempt}` }), ' · ', time(attempt.attempted_at), ` · ${attempt.duration_ms} ms · `,
      element('span', { text: result, className: attempt.status_code !== null && attempt.status_code < 300 ? 'ok' : 'bad' }),
    ]),
  ]);
  if (attempt.response_body) {
    item.append(element('pre', { text: attempt.response_body, className: 'payload', attrs: { tabindex: '0', 'aria-label': `Response body of attempt ${attempt.attempt}` } }));
  }
  return item;
}

async function openDelivery(eventId, { focus = true } = {}) {
  const detail = await api('GET', `${base}/deliveries/${encodeURIComponent(eventId)}`);
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
    element('dd', {}, [element('code', { text: value, className: 'wrap-anywhere' })]),
  ]));
  $('detail-body').textContent = JSON.stringify(JSON.parse(detail.request.body), null, 2);
  $('detail-attempts').replaceChildren(...detail.attempts_made.map(attemptItem));
  $('detail-no-attempts').hidden = detail.attempts_made.length !== 0;
  $('detail').hidden = false;
  if (focus) $('detail').focus();
}

function closeDelivery() {
  shownEvent = null;
  $('detail').hidden = true;
  const url = new URL(window.location.href);
  url.searchParams.delete('delivery');
  window.history.replaceState(null, '', url);
}

async function act(work) {
  try {
    clearError();
    await work();
  } catch (error) {
    showError(error);
  }
}

function showSecret(secret, note) {
  $('secret-value').value = secret;
  $('secret-note').textContent = note;
  $('copy-secret').textContent = 'Copy';
  $('secret').hidden = false;
  $('secret').focus();
}

function clearFieldErrors() {
  for (const name of ['url', 'description', 'events']) {
    $(`edit-${name}-error`).textContent = '';
    const field = name === 'events' ? $('edit-form').querySelector('fieldset') : $(`edit-${name}`);
    field.removeAttribute('aria-invalid');
  }
}

function openEdit() {
  clearFieldErrors();
  $('edit-url').value = endpoint.url;
  $('edit-description').value = endpoint.description;
  for (const box of $('edit-form').querySelectorAll('input[name="events"]')) box.checked = endpoint.events.includes(box.value);
  $('edit-card').hidden = false;
  $('edit-url').focus();
}

async function saveEdit(event) {
  event.preventDefault();
  clearFieldErrors();
  const events = [...$('edit-form').querySelectorAll('input[name="events"]:checked')].map((box) => box.value);
  try {
    clearError();
    await api('PATCH', base, { url: $('edit-url').value, description: $('edit-description').value, events });
    $('edit-card').hidden = true;
    await loadEndpoint();
    announce('Endpoint saved.');
  } catch (error) {
    // The message names the property first (url, events, description): shown beside that field.
    const name = /^(url|events|description)\b/.exec(error.message ?? '')?.[1];
    if (!name) return showError(error);
    $(`edit-${name}-error`).textContent = error.message;
    const field = name === 'events' ? $('edit-form').querySelector('fieldset') : $(`edit-${name}`);
    field.setAttribute('aria-invalid', 'true');
    (name === 'events' ? field.querySelector('input') : field).focus();
  }
}

async function toggleEnabled() {
  if (!endpoint.disabled) {
    const sure = await confirmAction(`Disable ${endpoint.url}?`, 'Nothing is sent to it, and no event is kept for it, until you enable it again.', 'Disable endpoint');
    if (!sure) return;
  }
  await act(async () => {
    await api('POST', `${base}/${endpoint.disabled ? 'enable' : 'disable'}`);
    await loadEndpoint();
    announce(endpoint.disabled ? 'Endpoint disabled.' : 'Endpoint enabled: new events are sent to it again.');
  });
}

async function rotate() {
  const sure = await confirmAction(
    `Rotate the secret of ${endpoint.url}?`,
    'A new secret signs every request from now on. The current one also signs them for 24 hours, so you can update your receiver without missing events.',
    'Rotate secret',
  );
  if (!sure) return;
  await act(async () => {
    const rotated = await api('POST', `${base}/rotate-secret`);
    showSecret(rotated.secret, 'The new secret. The previous one also signs requests for 24 hours.');
    await loadEndpoint();
    announce('Secret rotated.');
  });
}

async function remove() {
  const sure = await confirmAction(`Delete the endpoint ${endpoint.url}?`, 'No more events are sent to it, pending retries included, and its delivery history is removed. This cannot be undone.', 'Delete endpoint');
  if (!sure) return;
  await act(async () => {
    await api('DELETE', base);
    window.location.assign('/dashboard/settings/webhooks');
  });
}

async function previewTest() {
  const type = $('test-type').value;
  if (!type) return;
  const payload = await api('GET', `${base}/test?event_type=${encodeURIComponent(type)}`);
  $('test-payload').textContent = JSON.stringify(payload, null, 2);
}

async function resendAllFailed() {
  const option = $('resend-since').selectedOptions[0];
  const since = new Date(Date.now() - Number(option.value)).toISOString();
  const sure = await confirmAction('Resend all failed deliveries?', `Every delivery to this endpoint that was given up since ${option.textContent} is sent again, once.`, 'Resend all failed');
  if (!sure) return;
  await act(async () => {
    const { resent, more } = await api('POST', `${base}/resend-failed`, { since });
    await loadDeliveries();
    // At most 1,000 per request (openapi.dashboard.yaml): the button sends the next ones.
    announce(`${resent} failed deliver${resent === 1 ? 'y' : 'ies'} queued again.${more ? ' More remain: resend again for the next ones.' : ''}`);
  });
}

$('sign-out').addEventListener('click', signOut);
$('edit').addEventListener('click', openEdit);
$('edit-cancel').addEventListener('click', () => { $('edit-card').hidden = true; });
$('edit-form').addEventListener('submit', saveEdit);
$('toggle-enabled').addEventListener('click', toggleEnabled);
$('reveal').addEventListener('click', () => act(async () => {
  const { secret } = await api('POST', `${base}/reveal-secret`);
  showSecret(secret, 'Verify the webhook-signature header of each request with it. Revealing it is written to your Activity log.');
}));
$('copy-secret').addEventListener('click', () => copyValue($('secret-value'), $('copy-secret'), 'Secret'));
$('hide-secret').addEventListener('click', () => { $('secret-value').value = ''; $('secret').hidden = true; });
$('rotate').addEventListener('click', rotate);
$('delete').addEventListener('click', remove);
$('test-type').addEventListener('change', () => act(previewTest));
$('send-test').addEventListener('click', () => act(async () => {
  const delivery = await api('POST', `${base}/test?event_type=${encodeURIComponent($('test-type').value)}`);
  await loadDeliveries();
  announce(`Test event ${delivery.event_id} queued.`);
}));
$('filters').addEventListener('submit', (event) => {
  event.preventDefault();
  act(() => loadDeliveries());
});
for (const id of ['filter-state', 'filter-type']) $(id).addEventListener('change', () => act(() => loadDeliveries()));
$('more').addEventListener('click', () => act(() => loadDeliveries({ append: true })));
$('resend-failed').addEventListener('click', resendAllFailed);
$('detail-close').addEventListener('click', closeDelivery);
$('detail-resend').addEventListener('click', () => act(async () => {
  await api('POST', `${base}/deliveries/${encodeURIComponent(shownEvent)}/resend`);
  await Promise.all([loadDeliveries(), openDelivery(shownEvent, { focus: false })]);
  announce(`${shownEvent} queued again.`);
}));

act(async () => {
  await loadEndpoint();
  await Promise.all([loadDeliveries(), previewTest()]);
  const asked = new URLSearchParams(window.location.search).get('delivery');
  if (asked) await openDelivery(asked);
});
