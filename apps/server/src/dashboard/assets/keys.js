// The Settings → API Keys page: plain DOM, data from /dashboard/api (openapi.dashboard.yaml).
// Text is only ever set with textContent, never parsed as HTML.

import { $, announce, api, clearError, confirmAction, copyValue, element, rowButton, showError, signOut, timeCell } from './common.js';

const STATUS_LABELS = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

function keyRow(key) {
  const buttons = element('div', { className: 'row-actions' });
  const actions = element('td', { className: 'actions', attrs: { 'data-label': 'Actions' } }, [buttons]);
  if (key.status !== 'revoked') buttons.append(rowButton('Revoke', `Revoke key ${key.name}`, () => revokeKey(key)));
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

function renderKeys(keys) {
  $('keys-body').replaceChildren(...keys.map(keyRow));
  $('keys-table').hidden = keys.length === 0;
  $('keys-empty').hidden = keys.length !== 0;
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
    announce(`Moved to API version ${version}`);
  } catch (error) {
    showError(error);
  }
}

async function refresh() {
  const [account, { keys }] = await Promise.all([api('GET', '/account'), api('GET', '/keys')]);
  renderAccount(account);
  renderKeys(keys);
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
    await refresh();
    announce(`Key ${key.name} revoked.`);
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
    await refresh();
    announce(`Key ${key.name} deleted.`);
  } catch (error) {
    showError(error);
  }
}

async function createKey(event) {
  event.preventDefault();
  const form = $('create-form');
  if (!form.reportValidity()) return;
  const name = $('key-name').value;
  const expires = $('key-expires').value;
  const button = $('create-button');
  button.disabled = true;
  try {
    clearError();
    const created = await api('POST', '/keys', expires ? { name, expires_at: expires } : { name });
    form.reset();
    $('new-key-name').textContent = created.name;
    $('new-key-value').value = created.key;
    $('new-key').hidden = false;
    $('new-key').focus();
    await refresh();
    announce(`Key ${created.name} created. Copy it now: you won't see it again.`);
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

function copyKey() {
  return copyValue($('new-key-value'), $('copy-key'), 'Key');
}

function hideKey() {
  $('new-key-value').value = '';
  $('new-key').hidden = true;
  $('copy-key').textContent = 'Copy';
  $('key-name').focus();
}

function tomorrowUtc() {
  const date = new Date(Date.now() + 86_400_000);
  return date.toISOString().slice(0, 10);
}

$('key-expires').min = tomorrowUtc();
$('create-form').addEventListener('submit', createKey);
$('api-version-form').addEventListener('submit', moveApiVersion);
$('copy-key').addEventListener('click', copyKey);
$('dismiss-key').addEventListener('click', hideKey);
$('sign-out').addEventListener('click', signOut);
refresh().catch(showError);
