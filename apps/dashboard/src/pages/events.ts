// Settings → Events: the seller's change events across its endpoints (/dashboard/api/events), newest first, each
// with its delivery state at every endpoint; search by the start of an id or by customer; resend to one endpoint.
// Follows the page's test/live mode.

import { call, client, type paths, type Schemas } from '../api.js';
import { $, act, announce, clearFieldErrors, element, input, rowButton, showError, showFieldError, signOut, timeElement } from '../dom.js';
import { currentMode, withMode } from '../mode.js';
import { pagedList } from '../paged-list.js';

type Event = Schemas['DashboardEvent'];
type State = Schemas['EventDeliveryState'];
type Query = NonNullable<paths['/dashboard/api/events']['get']['parameters']['query']>;

/** Every state the API can answer, in words (a new one is a compile error here until it has words). */
const STATES: Record<State['status'], string> = {
  pending: 'Pending',
  retrying: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
  skipped: 'Not sent (endpoint disabled)',
};

const fields = { event_id: input('filter-event'), customer_id: input('filter-customer') };

function filters(): Query {
  const query: Query = { mode: currentMode() };
  const eventId = fields.event_id.value.trim();
  if (eventId) query.event_id = eventId;
  const customerId = fields.customer_id.value.trim();
  if (customerId) query.customer_id = customerId;
  return query;
}

function stateLine(event: Event, state: State): HTMLLIElement {
  const details: (Node | string)[] = [
    element('span', { text: STATES[state.status], className: `badge badge-${state.status === 'skipped' ? 'disabled' : state.status}` }),
    element('span', { text: `${state.attempts} ${state.attempts === 1 ? 'attempt' : 'attempts'}${state.last_status_code === null ? '' : `, last HTTP ${state.last_status_code}`}`, className: 'muted' }),
  ];
  if (state.next_attempt_at !== null && state.status === 'retrying') {
    details.push(element('span', { className: 'muted' }, ['next try ', timeElement(state.next_attempt_at)]));
  }
  const resend = rowButton('Resend', `Resend ${event.id} to ${state.endpoint_url}`, () =>
    act(async () => {
      await call(client.POST('/dashboard/api/events/{event_id}/resend', { params: { path: { event_id: event.id } }, body: { endpoint_id: state.endpoint_id } }));
      announce(`Event ${event.id} queued to be sent to ${state.endpoint_url} now.`);
      await list.load();
    }));
  const url = element('a', { className: 'endpoint-url', attrs: { href: withMode(`/dashboard/settings/webhooks/${encodeURIComponent(state.endpoint_id)}`) } }, [state.endpoint_url]);
  return element('li', {}, [url, ...details, resend]);
}

function eventCard(event: Event): HTMLLIElement {
  const customer = element('a', { attrs: { href: withMode(`/dashboard/settings/customers?id=${encodeURIComponent(event.customer_id)}`) } }, [element('code', { text: event.customer_id })]);
  const deliveries = event.deliveries.length === 0
    ? element('p', { text: 'No endpoint receives this event type.', className: 'muted' })
    : element('ul', { className: 'event-deliveries', attrs: { 'aria-label': `Deliveries of ${event.id}` } }, event.deliveries.map((state) => stateLine(event, state)));
  return element('li', { className: 'event-card' }, [
    element('h3', {}, [element('code', { text: event.id })]),
    element('p', { className: 'event-meta' }, [element('code', { text: event.type }), ' · ', timeElement(event.occurred_at), ' · customer ', customer]),
    deliveries,
  ]);
}

const list = pagedList<Query, Event>({
  fetch: async (query, cursor) => {
    const page = await call(client.GET('/dashboard/api/events', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } }));
    return { rows: page.events, next_cursor: page.next_cursor };
  },
  render: eventCard,
  ids: { body: 'events-list', shown: 'events-list', empty: 'events-empty', more: 'more' },
  focus: (card) => {
    const first = card.querySelector('h3');
    if (!first) return;
    first.tabIndex = -1;
    first.focus();
  },
}, { mode: currentMode() });

$('sign-out').addEventListener('click', () => void signOut());
$('more').addEventListener('click', () => void act(() => list.more()));
$('filters').addEventListener('submit', (event) => {
  event.preventDefault();
  clearFieldErrors(fields);
  void list.load(filters()).catch((error: unknown) => {
    if (!showFieldError(error, fields)) showError(error);
  });
});
// A link from a customer (`?customer_id=`) or an event id (`?event_id=`) opens on that search.
const linked = new URLSearchParams(window.location.search);
fields.customer_id.value = linked.get('customer_id') ?? '';
fields.event_id.value = linked.get('event_id') ?? '';
void act(() => list.load(filters()));
