// The Settings → Activity page: the seller's audit log from /dashboard/api/activity (openapi.dashboard.yaml).
// Text is only ever set with textContent, never parsed as HTML.

import { call, client, type Schemas } from '../api.js';
import { $, element, showError, signOut, timeCell } from '../dom.js';
import { modeQuery, withMode } from '../mode.js';

type Entry = Schemas['ActivityEntry'];

/** Every action the API can answer (the generated enum): a new one is a compile error here until it has words. */
const ACTIONS: Record<Entry['action'], string> = {
  'seller.created': 'Account created',
  'seller.updated': 'Account settings changed',
  'api_key.created': 'API key created',
  'api_key.rolled': 'API key rolled',
  'api_key.revoked': 'API key revoked',
  'api_key.deleted': 'API key deleted',
  'webhook_endpoint.created': 'Webhook endpoint added',
  'webhook_endpoint.updated': 'Webhook endpoint changed',
  'webhook_endpoint.disabled': 'Webhook endpoint disabled',
  'webhook_endpoint.enabled': 'Webhook endpoint enabled',
  'webhook_endpoint.deleted': 'Webhook endpoint deleted',
  'webhook_endpoint.secret_rotated': 'Signing secret rotated',
  'webhook_endpoint.secret_revealed': 'Signing secret revealed',
  'webhook_endpoint.test_sent': 'Test event sent',
  'webhook_delivery.resent': 'Webhook resent',
  'webhook_delivery.resent_failed': 'Failed webhooks resent',
  'sign_in_link.issued': 'Sign-in link issued',
  'sign_in.used': 'Signed in',
  signed_out: 'Signed out',
  'customer.updated': 'Customer changed in the dashboard',
  'customer.deleted': 'Customer deleted in the dashboard',
  'test_data.deleted': 'Test data deleted',
};

function actorText(entry: Entry): string {
  switch (entry.actor_type) {
    case 'cli':
      return 'Operator (CLI)';
    case 'dashboard':
      return entry.actor_id ? `Dashboard session ${entry.actor_id.slice(0, 8)}` : 'Dashboard';
    case 'api_key':
      return `API key ${entry.actor_label ?? entry.actor_id}…`;
    default:
      return 'The server';
  }
}

/** What kind of object an action concerns, from the action's own name. */
const KINDS: Record<string, string> = { customer: 'Customer', api_key: 'API key', webhook_endpoint: 'Endpoint', webhook_delivery: 'Event', seller: 'Account', sign_in_link: 'Sign-in link', sign_in: 'Sign-in link' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The object in words: its kind and a short id ("Endpoint 7c1d2e3f…", the whole id on hover), an endpoint linked
 * to its page while it exists; never a bare UUID. Ids with a prefix of their own (evt_…) are shown whole.
 */
function objectOf(entry: Entry): HTMLElement {
  const id = entry.target_id;
  if (id === null) return element('span', { text: '—', className: 'muted' });
  const kind = KINDS[entry.action.split('.')[0] ?? ''];
  const short = UUID.test(id) ? `${id.slice(0, 8)}…` : id;
  // The object's name (a key's name, an endpoint's URL) when the server knows it; the short id otherwise.
  const name = entry.target_name ? element('span', { text: entry.target_name }) : element('code', { text: short });
  const label = element('span', { className: 'target-id', attrs: { title: id } }, [...(kind ? [`${kind} `] : []), name]);
  if (entry.action.startsWith('webhook_endpoint.') && entry.action !== 'webhook_endpoint.deleted' && UUID.test(id)) {
    return element('a', { attrs: { href: withMode(`/dashboard/settings/webhooks/${encodeURIComponent(id)}`) } }, [label]);
  }
  return label;
}

function entryRow(entry: Entry): HTMLTableRowElement {
  return element('tr', {}, [
    element('th', { text: ACTIONS[entry.action] ?? entry.action, attrs: { scope: 'row', 'data-label': 'Action' } }),
    timeCell('When', entry.occurred_at, ''),
    element('td', { text: actorText(entry), attrs: { 'data-label': 'By' } }),
    element('td', { attrs: { 'data-label': 'Object' } }, [objectOf(entry)]),
    element('td', { text: entry.client_address ?? '—', attrs: { 'data-label': 'From' } }),
  ]);
}

/** The next (older) page's cursor; null when the last page is shown. */
let cursor: string | null = null;

async function load({ append = false } = {}): Promise<void> {
  try {
    const query = { ...modeQuery(), ...(append && cursor ? { cursor } : {}) };
    const page = await call(client.GET('/dashboard/api/activity', { params: { query } }));
    const rows = page.entries.map(entryRow);
    if (append) $('activity-body').append(...rows);
    else $('activity-body').replaceChildren(...rows);
    cursor = page.next_cursor;
    $('more').hidden = cursor === null;
    const none = $('activity-body').children.length === 0;
    $('activity-table').hidden = none;
    $('activity-empty').hidden = !none;
    // Keyboard users land on the first row the button brought.
    if (append && rows[0]) {
      rows[0].tabIndex = -1;
      rows[0].focus();
    }
  } catch (error) {
    showError(error);
  }
}

$('sign-out').addEventListener('click', () => void signOut());
$('more').addEventListener('click', () => void load({ append: true }));
void load();
