// The Settings → Webhooks page: plain DOM, data from /dashboard/api/webhooks (openapi.dashboard.yaml).
// Text is only ever set with textContent, never parsed as HTML.

import { call, client, type Schemas } from '../api.js';
import { modeQuery, withMode } from '../mode.js';
import { $, announce, button, clearError, clearFieldErrors, showFieldError, confirmAction, copyValue, dateTime, element, form, input, rowButton, select, showError, signOut, timeCell } from '../dom.js';

type Endpoint = Schemas['WebhookEndpoint'];

/** Path parameter `id` and the page's mode (the test/live switch): an endpoint of the other mode is a 404. */
const inMode = (id: string) => ({ params: { path: { id }, query: modeQuery() } });
type Delivery = Schemas['WebhookDelivery'];

const STATE_LABELS: Record<Schemas['WebhookDeliveryStatus'], string> = { pending: 'Pending', retrying: 'Retrying', delivered: 'Delivered', failed: 'Failed', skipped: 'Skipped' };
/** While a shown delivery is still on its way, the list is read again after this long. */
const DELIVERIES_REFRESH_MS = 2000;

/** The endpoint whose deliveries are shown, and the timer that refreshes them. */
let shown: Endpoint | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

/** Disabled (after 5 days of failures) before failing before active, with what each means. */
function endpointStatus(endpoint: Endpoint): [string, string, string | undefined] {
  if (endpoint.disabled) {
    return ['Disabled', 'disabled', 'Every delivery failed for 5 days, so nothing is sent to it. Enable it once your receiver works again.'];
  }
  // The API's one health rule: failing as soon as the last 5 attempts failed, or an hour went by without a success.
  if (endpoint.health === 'failing' || endpoint.failing) {
    const next = endpoint.next_retry_at ? ` Next retry ${dateTime.format(new Date(endpoint.next_retry_at))}.` : '';
    return ['Failing', 'failing', `Its recent attempts failed; a successful delivery clears this.${next}`];
  }
  return ['Active', 'active', undefined];
}

function endpointRow(endpoint: Endpoint): HTMLTableRowElement {
  const buttons = element('div', { className: 'row-actions' }, [
    ...(endpoint.disabled ? [rowButton('Enable', `Enable endpoint ${endpoint.url}`, () => enableEndpoint(endpoint))] : []),
    rowButton('Deliveries', `Show deliveries to ${endpoint.url}`, () => showDeliveries(endpoint)),
    // The accessible name starts with the visible label (WCAG 2.5.3, axe label-content-name-mismatch).
    rowButton('Rotate secret', `Rotate secret of ${endpoint.url}`, () => rotateSecret(endpoint)),
    rowButton('Delete', `Delete endpoint ${endpoint.url}`, () => deleteEndpoint(endpoint), 'button-danger'),
  ]);
  const [label, kind, title] = endpointStatus(endpoint);
  return element('tr', { attrs: { 'data-endpoint-id': endpoint.id } }, [
    element('th', { attrs: { scope: 'row', 'data-label': 'URL' } }, [
      // The endpoint's own page: state, success rate, edit, secret, deliveries with their attempts.
      element('a', { attrs: { href: withMode(`/dashboard/settings/webhooks/${encodeURIComponent(endpoint.id)}`) } }, [
        element('code', { text: endpoint.url, className: 'endpoint-url' }),
      ]),
    ]),
    element('td', { attrs: { 'data-label': 'Events' } }, [
      element('ul', { className: 'event-list' }, endpoint.events.map((type) => element('li', {}, [element('code', { text: type })]))),
    ]),
    timeCell('Created', endpoint.created_at, ''),
    element('td', { attrs: { 'data-label': 'Status' } }, [
      element('span', { text: label, className: `badge badge-${kind}`, attrs: title ? { title } : {} }),
    ]),
    element('td', { className: 'actions', attrs: { 'data-label': 'Actions' } }, [buttons]),
  ]);
}

function deliveryRow(endpoint: Endpoint, delivery: Delivery): HTMLTableRowElement {
  const response = delivery.last_status_code === null
    ? element('span', { text: delivery.attempts === 0 ? '—' : `no answer${delivery.last_error ? ` (${delivery.last_error})` : ''}`, className: 'muted' })
    : element('code', { text: String(delivery.last_status_code) });
  return element('tr', { attrs: { 'data-event-id': delivery.event_id } }, [
    element('th', { attrs: { scope: 'row', 'data-label': 'Event' } }, [
      // Opens the delivery with its request and attempts on the endpoint's own page.
      element('a', { attrs: { href: withMode(`/dashboard/settings/webhooks/${encodeURIComponent(endpoint.id)}?delivery=${delivery.event_id}`) } }, [
        element('code', { text: delivery.event_type }),
        element('br'),
        element('code', { text: delivery.event_id }),
      ]),
    ]),
    element('td', { attrs: { 'data-label': 'State' } }, [
      element('span', { text: STATE_LABELS[delivery.status], className: `badge badge-${delivery.status}` }),
    ]),
    element('td', { attrs: { 'data-label': 'Response' } }, [response]),
    element('td', { text: String(delivery.attempts), attrs: { 'data-label': 'Attempts' } }),
    timeCell('Last attempt', delivery.last_attempt_at, 'not yet'),
    timeCell('Next attempt', delivery.next_attempt_at, '—'),
    element('td', { className: 'actions', attrs: { 'data-label': 'Actions' } }, [
      element('div', { className: 'row-actions' }, [
        rowButton('Resend', `Resend ${delivery.event_type} ${delivery.event_id}`, () => resend(delivery)),
      ]),
    ]),
  ]);
}

function renderEndpoints(endpoints: Endpoint[]): void {
  $('endpoints-body').replaceChildren(...endpoints.map(endpointRow));
  $('endpoints-table').hidden = endpoints.length === 0;
  $('endpoints-empty').hidden = endpoints.length !== 0;
}

async function refreshEndpoints(): Promise<void> {
  const { endpoints } = await call(client.GET('/dashboard/api/webhooks', { params: { query: modeQuery() } }));
  renderEndpoints(endpoints);
  if (shown && !endpoints.some((endpoint) => endpoint.id === shown?.id)) hideDeliveries();
}

async function refreshDeliveries(): Promise<void> {
  clearTimeout(refreshTimer);
  if (!shown) return;
  const endpoint = shown;
  const { deliveries } = await call(client.GET('/dashboard/api/webhooks/{id}/deliveries', inMode(endpoint.id)));
  if (shown !== endpoint) return;
  $('deliveries-body').replaceChildren(...deliveries.map((delivery) => deliveryRow(endpoint, delivery)));
  $('deliveries-table').hidden = deliveries.length === 0;
  $('deliveries-empty').hidden = deliveries.length !== 0;
  // Keep the list current while something is on its way (the first attempt follows within seconds).
  if (deliveries.some((delivery) => delivery.status === 'pending' || delivery.status === 'retrying')) {
    refreshTimer = setTimeout(() => refreshDeliveries().catch(showError), DELIVERIES_REFRESH_MS);
  }
}

async function showDeliveries(endpoint: Endpoint): Promise<void> {
  shown = endpoint;
  $('deliveries-url').textContent = endpoint.url;
  $('deliveries-body').replaceChildren();
  $('deliveries').hidden = false;
  try {
    clearError();
    await refreshDeliveries();
    $('deliveries').focus();
  } catch (error) {
    showError(error);
  }
}

function hideDeliveries(): void {
  shown = null;
  clearTimeout(refreshTimer);
  $('deliveries').hidden = true;
}

function showSecret(endpoint: Schemas['CreatedWebhookEndpoint']): void {
  $('new-secret-url').textContent = endpoint.url;
  input('new-secret-value').value = endpoint.secret;
  const expires = endpoint.previous_secret_expires_at;
  $('new-secret-rotated').hidden = !expires;
  if (expires) {
    $('previous-expires').textContent = dateTime.format(new Date(expires));
    $('previous-expires').setAttribute('datetime', expires);
  }
  $('copy-secret').textContent = 'Copy';
  $('new-secret').hidden = false;
  $('new-secret').focus();
}

function hideSecret(): void {
  input('new-secret-value').value = '';
  $('new-secret').hidden = true;
  $('endpoint-url').focus();
}

const createFields = () => ({ url: input('endpoint-url'), events: $('endpoint-events'), api_version: select('endpoint-api-version') });

async function createEndpoint(event: Event): Promise<void> {
  event.preventDefault();
  const create = form('create-form');
  // The server checks the URL and the events (as Edit does): its message goes beside the field, as Edit's does.
  const fields = createFields();
  clearFieldErrors(fields);
  const events = [...create.querySelectorAll<HTMLInputElement>('input[name="events"]:checked')].map((box) => box.value as Schemas['EventType']);
  const submit = button('create-button');
  submit.disabled = true;
  try {
    clearError();
    const apiVersion = select('endpoint-api-version').value;
    const created = await call(client.POST('/dashboard/api/webhooks', {
      params: { query: modeQuery() },
      body: { url: input('endpoint-url').value, events, ...(apiVersion && { api_version: apiVersion }) },
    }));
    create.reset();
    showSecret(created);
    await refreshEndpoints();
    announce(`Endpoint ${created.url} added. Copy its secret now: you won't see it again.`);
  } catch (error) {
    if (!showFieldError(error, fields)) showError(error);
  } finally {
    submit.disabled = false;
  }
}

async function rotateSecret(endpoint: Endpoint): Promise<void> {
  const sure = await confirmAction(
    `Rotate the secret of ${endpoint.url}?`,
    'A new secret signs every request from now on. The current one also signs them for 24 hours, so you can update your receiver without missing events.',
    'Rotate secret',
  );
  if (!sure) return;
  try {
    clearError();
    const rotated = await call(client.POST('/dashboard/api/webhooks/{id}/rotate-secret', inMode(endpoint.id)));
    showSecret(rotated);
    await refreshEndpoints();
    announce(`Secret of ${endpoint.url} rotated. Copy the new one now: you won't see it again.`);
  } catch (error) {
    showError(error);
  }
}

async function enableEndpoint(endpoint: Endpoint): Promise<void> {
  try {
    clearError();
    await call(client.POST('/dashboard/api/webhooks/{id}/enable', inMode(endpoint.id)));
    await refreshEndpoints();
    announce(`Endpoint ${endpoint.url} enabled: new events are sent to it again.`);
  } catch (error) {
    showError(error);
  }
}

async function deleteEndpoint(endpoint: Endpoint): Promise<void> {
  const sure = await confirmAction(
    `Delete the endpoint ${endpoint.url}?`,
    'No more events are sent to it, pending retries included, and its delivery history is removed. This cannot be undone.',
    'Delete endpoint',
  );
  if (!sure) return;
  try {
    clearError();
    await call(client.DELETE('/dashboard/api/webhooks/{id}', inMode(endpoint.id)));
    if (shown?.id === endpoint.id) hideDeliveries();
    await refreshEndpoints();
    announce(`Endpoint ${endpoint.url} deleted.`);
  } catch (error) {
    showError(error);
  }
}

async function sendTest(): Promise<void> {
  if (!shown) return;
  const send = button('send-test');
  send.disabled = true;
  try {
    clearError();
    const delivery = await call(client.POST('/dashboard/api/webhooks/{id}/test', inMode(shown.id)));
    await refreshDeliveries();
    announce(`Test event ${delivery.event_id} queued.`);
  } catch (error) {
    showError(error);
  } finally {
    send.disabled = false;
  }
}

async function resend(delivery: Delivery): Promise<void> {
  if (!shown) return;
  try {
    clearError();
    await call(client.POST('/dashboard/api/webhooks/{id}/deliveries/{event_id}/resend', { params: { path: { id: shown.id, event_id: delivery.event_id }, query: modeQuery() } }));
    await refreshDeliveries();
    announce(`${delivery.event_type} ${delivery.event_id} queued again.`);
  } catch (error) {
    showError(error);
  }
}

/** The create form's version select: the account's pinned version (the default) and the newer open ones. */
async function fillApiVersions(): Promise<void> {
  const account = await call(client.GET('/dashboard/api/account'));
  select('endpoint-api-version').replaceChildren(
    new Option(`${account.api_version} (your account's)`, account.api_version, true, true),
    ...account.api_versions_available.map((version) => new Option(version, version)),
  );
}

form('create-form').addEventListener('submit', (event) => void createEndpoint(event));
$('copy-secret').addEventListener('click', () => void copyValue(input('new-secret-value'), $('copy-secret'), 'Secret'));
$('dismiss-secret').addEventListener('click', hideSecret);
$('send-test').addEventListener('click', () => void sendTest());
$('refresh-deliveries').addEventListener('click', () => refreshDeliveries().catch(showError));
$('sign-out').addEventListener('click', () => void signOut());
refreshEndpoints().catch(showError);
fillApiVersions().catch(showError);
