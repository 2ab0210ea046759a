// The Settings → API Keys page: plain DOM, data from /dashboard/api (openapi.dashboard.yaml).
// Text is only ever set with textContent, never parsed as HTML.

import { $, announce, api, clearError, confirmAction, copyValue, dateTime, element, fieldError, rowButton, showError, signOut, timeCell } from './common.js';

const STATUS_LABELS = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };
const OVERLAP_LABELS = { '1h': '1 hour', '24h': '24 hours', '7d': '7 days' };

/** The key shown once in the green card (its id), so revoking or deleting it closes the card. */
let revealedKeyId = null;
/** The key the roll dialog is open for. */
let rolling = null;
/** Where the next page of keys starts (the list answers 100 at most per page); null after the last. */
let nextCursor = null;

function keyRow(key) {
  const buttons = element('div', { className: 'row-actions' });
  const actions = element('td', { className: 'actions', attrs: { 'data-label': 'Actions' } }, [buttons]);
  // Only an active key can be rolled or revoked; an expired or revoked one can only go.
  if (key.status === 'active') {
    buttons.append(rowButton('Roll', `Roll key ${key.name}`, () => openRoll(key)));
    buttons.append(rowButton('Revoke', `Revoke key ${key.name}`, () => revokeKey(key)));
  }
  buttons.append(rowButton('Delete', `Delete key ${key.name}`, () => deleteKey(key), 'button-danger'));

  return element('tr', { attrs: { 'data-key-id': key.id } }, [
    element('th', { text: key.name, attrs: { scope: 'row', 'data-label': 'Name' } }),
    element('td', { attrs: { 'data-label': 'Key' } }, [element('code', { text: `${key.prefix}…` })]),
    timeCell('Created', key.created_at, ''),
    timeCell('Last used', key.last_used_at, 'never'),
    timeCell('Expires', key.expires_at, 'never'),
    element('td', { attrs: { 'data-label': 'Status' } }, [
      element('span', { text: STATUS_LABELS[key.status], className: `badge badge-${key.status}` }),
    ]),
    actions,
  ]);
}

function renderKeys({ keys, next_cursor: next }, append = false) {
  if (append) $('keys-body').append(...keys.map(keyRow));
  else $('keys-body').replaceChildren(...keys.map(keyRow));
  const shown = $('keys-body').children.length;
  $('keys-table').hidden = shown === 0;
  $('keys-empty').hidden = shown !== 0;
  nextCursor = next;
  $('more-keys').hidden = next === null;
}

async function moreKeys() {
  const button = $('more-keys');
  button.disabled = true;
  try {
    clearError();
    renderKeys(await api('GET', `/keys?cursor=${encodeURIComponent(nextCursor)}`), true);
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

function renderAccount(account) {
  const { plan, customers_used: used } = account;
  $('seller-name').textContent = account.seller.name;
  $('plan-name').textContent = plan.name.charAt(0).toUpperCase() + plan.name.slice(1);
  $('customers-used').textContent = `${used.toLocaleString()} of ${plan.customer_limit.toLocaleString()} customers used`;
  const meter = $('customers-meter');
  meter.max = Math.max(plan.customer_limit, 1);
  meter.high = meter.max * 0.9;
  meter.value = used;
  $('api-version').textContent = account.api_version;
  const newer = account.api_versions_available;
  $('api-version-select').replaceChildren(...newer.map((version) => element('option', { text: version, attrs: { value: version } })));
  $('api-version-form').hidden = newer.length === 0;
}

async function moveApiVersion(event) {
  event.preventDefault();
  const version = $('api-version-select').value;
  const sure = await confirmAction(
    `Move to API version ${version}?`,
    'Requests without a Customers-Version header are answered in the new version from now on. You cannot move back from the dashboard.',
    'Move',
  );
  if (!sure) return;
  try {
    clearError();
    renderAccount(await api('PATCH', '/account/api-version', { api_version: version }));
    announce(`Moved to API version ${version}.`);
  } catch (error) {
    showError(error);
  }
}

async function refresh() {
  const [account, page] = await Promise.all([api('GET', '/account'), api('GET', '/keys')]);
  renderAccount(account);
  renderKeys(page);
}

/** Shows a new key once: after creating or rolling. */
function reveal(key, title, overlapNote) {
  revealedKeyId = key.id;
  $('new-key-title').textContent = title;
  $('new-key-value').value = key.key;
  $('new-key-overlap').textContent = overlapNote ?? '';
  $('new-key-overlap').hidden = !overlapNote;
  $('copy-key').textContent = 'Copy';
  $('new-key').hidden = false;
  $('new-key').focus();
}

function hideKey() {
  revealedKeyId = null;
  $('new-key-value').value = '';
  $('new-key').hidden = true;
  $('copy-key').textContent = 'Copy';
  $('open-create').focus();
}

/** A key that stopped working must not stay on screen as if it were usable. */
function forget(keyId) {
  if (revealedKeyId !== keyId) return;
  revealedKeyId = null;
  $('new-key-value').value = '';
  $('new-key').hidden = true;
}

async function revokeKey(key) {
  const sure = await confirmAction(
    `Revoke “${key.name}”?`,
    'Requests with this key are refused from now on. The key stays in the list as revoked; this cannot be undone.',
    'Revoke key',
  );
  if (!sure) return;
  try {
    clearError();
    await api('POST', `/keys/${encodeURIComponent(key.id)}/revoke`);
    forget(key.id);
    await refresh();
    announce(`Key “${key.name}” revoked.`);
  } catch (error) {
    showError(error);
  }
}

async function deleteKey(key) {
  const sure = await confirmAction(
    `Delete “${key.name}” permanently?`,
    'The key stops working at once and disappears from this list. This cannot be undone.',
    'Delete key',
  );
  if (!sure) return;
  try {
    clearError();
    await api('DELETE', `/keys/${encodeURIComponent(key.id)}`);
    forget(key.id);
    await refresh();
    announce(`Key “${key.name}” deleted.`);
  } catch (error) {
    showError(error);
  }
}

function openCreate() {
  $('create-form').reset();
  fieldError($('key-name'), null);
  fieldError($('key-expires'), null);
  $('key-expires').min = tomorrowUtc();
  $('create-dialog').showModal();
  $('key-name').focus();
}

/** A 400 from the server names its property first: show it beside that field. */
function showCreateError(error) {
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith('expires_at ')) fieldError($('key-expires'), message.replace('expires_at', 'The expiration date'));
  else if (message.startsWith('name ')) fieldError($('key-name'), message.replace('name', 'The name'));
  else {
    $('create-dialog').close();
    showError(error);
  }
}

async function createKey(event) {
  event.preventDefault();
  const name = $('key-name').value;
  const expires = $('key-expires').value;
  fieldError($('key-name'), name.trim() === '' ? 'Enter a name for the key.' : null);
  fieldError($('key-expires'), $('key-expires').validity.badInput ? 'Enter a full date, or leave it empty.' : null);
  const invalid = $('create-form').querySelector('[aria-invalid="true"]');
  if (invalid) {
    invalid.focus();
    return;
  }
  const button = $('create-button');
  button.disabled = true;
  try {
    clearError();
    const created = await api('POST', '/keys', expires ? { name, expires_at: expires } : { name });
    $('create-dialog').close();
    await refresh();
    reveal(created, `Key “${created.name}” created`);
    announce(`Key “${created.name}” created. Copy it now: you won't see it again.`);
  } catch (error) {
    showCreateError(error);
    $('create-form').querySelector('[aria-invalid="true"]')?.focus();
  } finally {
    button.disabled = false;
  }
}

function openRoll(key) {
  rolling = key;
  $('roll-name').textContent = key.name;
  $('roll-form').reset();
  $('roll-dialog').showModal();
  $('roll-form').querySelector('input[name="overlap"]:checked').focus();
}

async function rollKey(event) {
  event.preventDefault();
  const key = rolling;
  const overlap = new FormData($('roll-form')).get('overlap');
  const button = $('roll-button');
  button.disabled = true;
  try {
    clearError();
    const rolled = await api('POST', `/keys/${encodeURIComponent(key.id)}/roll`, { overlap });
    $('roll-dialog').close();
    await refresh();
    const until = dateTime.format(new Date(rolled.previous.expires_at));
    reveal(rolled.key, `Key “${rolled.key.name}” rolled`, `The old key (${rolled.previous.prefix}…) keeps working until ${until}.`);
    announce(`Key “${key.name}” rolled: the old key works for ${OVERLAP_LABELS[overlap]} more. Copy the new key now.`);
  } catch (error) {
    $('roll-dialog').close();
    showError(error);
  } finally {
    button.disabled = false;
  }
}

function copyKey() {
  return copyValue($('new-key-value'), $('copy-key'), 'Key');
}

function tomorrowUtc() {
  const date = new Date(Date.now() + 86_400_000);
  return date.toISOString().slice(0, 10);
}

$('open-create').addEventListener('click', openCreate);
$('cancel-create').addEventListener('click', () => $('create-dialog').close());
$('create-form').addEventListener('submit', createKey);
$('roll-form').addEventListener('submit', rollKey);
$('cancel-roll').addEventListener('click', () => $('roll-dialog').close());
$('api-version-form').addEventListener('submit', moveApiVersion);
$('copy-key').addEventListener('click', copyKey);
$('dismiss-key').addEventListener('click', hideKey);
$('sign-out').addEventListener('click', signOut);
$('more-keys').addEventListener('click', moreKeys);
refresh().catch(showError);
