// The Settings → API Keys page: plain DOM, data from /dashboard/api (openapi.dashboard.yaml).
// Text is only ever set with textContent, never parsed as HTML.

const $ = (id) => document.getElementById(id);
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const STATUS_LABELS = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

class SignedOut extends Error {}

async function api(method, path, body) {
  const response = await fetch(`/dashboard/api${path}`, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) {
    window.location.assign('/dashboard');
    throw new SignedOut();
  }
  if (response.status === 204) return undefined;
  const data = await response.json();
  if (!response.ok) throw new Error(data.message ?? `Request failed (${response.status})`);
  return data;
}

function announce(text) {
  $('status').textContent = text;
}

function showError(error) {
  if (error instanceof SignedOut) return;
  const box = $('error');
  box.textContent = error instanceof Error ? error.message : String(error);
  box.hidden = false;
}

function clearError() {
  $('error').hidden = true;
  $('error').textContent = '';
}

function element(tag, { text, className, attrs } = {}, children = []) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attrs ?? {})) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

function timeCell(label, iso, empty) {
  const cell = element('td', { attrs: { 'data-label': label } });
  if (iso === null) cell.append(element('span', { text: empty, className: 'muted' }));
  else cell.append(element('time', { text: dateTime.format(new Date(iso)), attrs: { datetime: iso, title: iso } }));
  return cell;
}

function keyRow(key) {
  const buttons = element('div', { className: 'row-actions' });
  const actions = element('td', { className: 'actions', attrs: { 'data-label': 'Actions' } }, [buttons]);
  if (key.status !== 'revoked') {
    const revoke = element('button', { text: 'Revoke', className: 'button button-small', attrs: { type: 'button', 'aria-label': `Revoke key ${key.name}` } });
    revoke.addEventListener('click', () => revokeKey(key));
    buttons.append(revoke);
  }
  const remove = element('button', { text: 'Delete', className: 'button button-small button-danger', attrs: { type: 'button', 'aria-label': `Delete key ${key.name}` } });
  remove.addEventListener('click', () => deleteKey(key));
  buttons.append(remove);

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
}

async function refresh() {
  const [account, { keys }] = await Promise.all([api('GET', '/account'), api('GET', '/keys')]);
  renderAccount(account);
  renderKeys(keys);
}

/** Resolves true when the seller confirms in the modal dialog (Escape and Cancel resolve false). */
function confirmAction(title, text, confirmLabel) {
  const dialog = $('confirm');
  $('confirm-title').textContent = title;
  $('confirm-text').textContent = text;
  $('confirm-button').textContent = confirmLabel;
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
  });
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

async function copyKey() {
  const input = $('new-key-value');
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand('copy');
  }
  $('copy-key').textContent = 'Copied';
  announce('Key copied to the clipboard.');
}

function hideKey() {
  $('new-key-value').value = '';
  $('new-key').hidden = true;
  $('copy-key').textContent = 'Copy';
  $('key-name').focus();
}

async function signOut() {
  try {
    await api('DELETE', '/session');
  } catch (error) {
    showError(error);
    return;
  }
  window.location.assign('/dashboard');
}

function tomorrowUtc() {
  const date = new Date(Date.now() + 86_400_000);
  return date.toISOString().slice(0, 10);
}

$('key-expires').min = tomorrowUtc();
$('create-form').addEventListener('submit', createKey);
$('copy-key').addEventListener('click', copyKey);
$('dismiss-key').addEventListener('click', hideKey);
$('sign-out').addEventListener('click', signOut);
refresh().catch(showError);
