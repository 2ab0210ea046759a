// Settings → Customers: the seller's customers (/dashboard/api/customers, the public API's own service), newest
// first, searched by email and status; each opens to its details and events, and can be edited or deleted (audited).
// Follows the page's test/live mode.

import { byId, call, client, type paths, type Schemas } from '../api.js';
import {
  $, act, announce, button, clearFieldErrors, confirmAction, element, form, input, select, showError, showFieldError, signOut, timeCell, timeElement,
} from '../dom.js';
import { currentMode, modeQuery, withMode } from '../mode.js';
import { pagedList } from '../paged-list.js';

type Customer = Schemas['DashboardCustomer'];
type Query = NonNullable<paths['/dashboard/api/customers']['get']['parameters']['query']>;
// The spec leaves the edit's properties to openapi.yaml's CustomerUpdate (an open object); the server validates them.
type Changes = paths['/dashboard/api/customers/{id}']['patch']['requestBody']['content']['application/json'];

const STATUSES: Record<Customer['status'], string> = { active: 'Active', inactive: 'Inactive', suspended: 'Suspended' };
const EVENT_PREVIEW = 10;

const filterFields = { email: input('filter-email') };
const editFields = { first_name: input('edit-first-name'), last_name: input('edit-last-name'), email: input('edit-email') };

const nameOf = (customer: Customer) => `${customer.first_name} ${customer.last_name}`;
const statusBadge = (status: Customer['status']) =>
  element('span', { text: STATUSES[status], className: `badge ${status === 'active' ? 'badge-active' : 'badge-expired'}` });

function filters(): Query {
  const query: Query = { mode: currentMode() };
  const email = filterFields.email.value.trim();
  if (email) query.email = email;
  const status = select('filter-status').value as Customer['status'] | '';
  if (status) query.status = status;
  return query;
}

function customerRow(customer: Customer): HTMLTableRowElement {
  const open = element('button', { text: nameOf(customer), className: 'link-button', attrs: { type: 'button' } });
  open.addEventListener('click', () => void openDetail(customer.id, open));
  return element('tr', { attrs: { 'data-id': customer.id } }, [
    element('th', { attrs: { scope: 'row', 'data-label': 'Name' } }, [open]),
    element('td', { text: customer.email, attrs: { 'data-label': 'Email' } }),
    element('td', { attrs: { 'data-label': 'Status' } }, [statusBadge(customer.status)]),
    timeCell('Created', customer.created_at, ''),
  ]);
}

const list = pagedList<Query, Customer>({
  fetch: async (query, cursor) => {
    const page = await call(client.GET('/dashboard/api/customers', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } }));
    return { rows: page.data, next_cursor: page.next_cursor };
  },
  render: customerRow,
  ids: { body: 'customers-body', shown: 'customers-table', empty: 'customers-empty', more: 'more' },
  focus: (row) => row.querySelector('button')?.focus(),
}, { mode: currentMode() });

let shown: Customer | null = null;
let opener: HTMLElement | null = null;

function showCustomer(customer: Customer): void {
  shown = customer;
  $('detail-heading').textContent = nameOf(customer);
  $('detail-email').textContent = customer.email;
  $('detail-status').replaceChildren(statusBadge(customer.status));
  $('detail-company').textContent = customer.company_name ?? '—';
  $('detail-language').textContent = customer.language ?? '—';
  $('detail-id').textContent = customer.id;
  $('detail-created').replaceChildren(timeElement(customer.created_at));
  $('detail-updated').replaceChildren(timeElement(customer.updated_at));
  $<HTMLAnchorElement>('detail-events-link').href = withMode(`/dashboard/settings/events?customer_id=${encodeURIComponent(customer.id)}`);
}

async function showEvents(customerId: string): Promise<void> {
  const page = await call(client.GET('/dashboard/api/events', { params: { query: { ...modeQuery(), customer_id: customerId, limit: EVENT_PREVIEW } } }));
  $('detail-events').replaceChildren(...page.events.map((event) => element('li', {}, [
    element('code', { text: event.type }), ' ',
    element('a', { attrs: { href: withMode(`/dashboard/settings/events?event_id=${encodeURIComponent(event.id)}`) } }, [element('code', { text: event.id })]),
    ' ', timeElement(event.occurred_at),
  ])));
  $('detail-events-empty').hidden = page.events.length > 0;
}

async function openDetail(id: string, from: HTMLElement | null): Promise<void> {
  await act(async () => {
    const customer = await call(client.GET('/dashboard/api/customers/{id}', { params: { path: { id }, query: modeQuery() } }));
    opener = from;
    showCustomer(customer);
    form('edit-form').hidden = true;
    for (const row of $('customers-body').querySelectorAll('tr')) row.toggleAttribute('aria-current', row.dataset.id === id);
    $('detail').hidden = false;
    $('detail').focus();
    await showEvents(id);
  });
}

function closeDetail(): void {
  $('detail').hidden = true;
  shown = null;
  for (const row of $('customers-body').querySelectorAll('tr')) row.removeAttribute('aria-current');
  opener?.focus();
}

function startEdit(): void {
  if (!shown) return;
  clearFieldErrors(editFields);
  editFields.first_name.value = shown.first_name;
  editFields.last_name.value = shown.last_name;
  editFields.email.value = shown.email;
  select('edit-status').value = shown.status;
  form('edit-form').hidden = false;
  editFields.first_name.focus();
}

async function saveEdit(): Promise<void> {
  if (!shown) return;
  const before = shown;
  clearFieldErrors(editFields);
  const changes: Record<string, string> = {};
  for (const [name, field] of Object.entries(editFields)) if (field.value !== before[name as keyof typeof editFields]) changes[name] = field.value;
  if (select('edit-status').value !== before.status) changes.status = select('edit-status').value;
  if (Object.keys(changes).length === 0) {
    form('edit-form').hidden = true;
    button('edit').focus();
    return;
  }
  try {
    const saved = await call(client.PATCH('/dashboard/api/customers/{id}', { params: { path: { id: before.id }, query: modeQuery() }, body: changes as Changes }));
    showCustomer(saved);
    form('edit-form').hidden = true;
    announce(`${nameOf(saved)} saved.`);
    button('edit').focus();
    await list.load();
  } catch (error) {
    // The 409 (another customer has this email) names `email` as its field, like a 400 does.
    if (!showFieldError(error, editFields)) showError(error);
  }
}

async function remove(): Promise<void> {
  if (!shown) return;
  const customer = shown;
  const sure = await confirmAction(`Delete ${nameOf(customer)}?`, `${customer.email} is deleted for good, as the API's DELETE does; a customer.deleted event is sent.`, 'Delete customer');
  if (!sure) return;
  await act(async () => {
    await call(client.DELETE('/dashboard/api/customers/{id}', { params: { path: { id: customer.id }, query: modeQuery() } }));
    $('detail').hidden = true;
    shown = null;
    announce(`${nameOf(customer)} deleted.`);
    await list.load();
    $('customers-heading').tabIndex = -1;
    $('customers-heading').focus();
  });
}

$('sign-out').addEventListener('click', () => void signOut());
$('more').addEventListener('click', () => void act(() => list.more()));
$('detail-close').addEventListener('click', closeDetail);
$('detail').addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && form('edit-form').hidden) closeDetail();
});
button('edit').addEventListener('click', startEdit);
$('edit-cancel').addEventListener('click', () => {
  form('edit-form').hidden = true;
  button('edit').focus();
});
form('edit-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void saveEdit();
});
button('delete').addEventListener('click', () => void remove());
$('filters').addEventListener('submit', (event) => {
  event.preventDefault();
  clearFieldErrors(filterFields);
  void list.load(filters()).catch((error: unknown) => {
    if (!showFieldError(error, filterFields)) showError(error);
  });
});
// A link from an event (`?id=`) opens on that customer.
const linked = new URLSearchParams(window.location.search).get('id');
void act(async () => {
  await list.load();
  if (linked) await openDetail(linked, null);
});
