// The Settings → API Keys page: plain DOM, data from /dashboard/api (openapi.dashboard.yaml).
// Text is only ever set with textContent, never parsed as HTML.

import { byId, call, client, RefusedError, type Schemas } from '../api.js';
import { displayOrder, replacements } from '../key-order.js';
import { currentMode, modeQuery } from '../mode.js';
import { accessWords, GRANTS, scopesFor, type Level } from '../scope-choices.js';
import { $, announce, button, clearError, confirmAction, copyValue, dateTime, dialog, element, fieldError, form, input, rowButton, select, showError, signOut, timeCell } from '../dom.js';

type Key = Schemas['Key'];
type Overlap = Schemas['KeyRoll']['overlap'];

const STATUS_LABELS: Record<Schemas['KeyStatus'], string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };
const OVERLAP_LABELS: Record<string, string> = { '1h': '1 hour', '24h': '24 hours', '7d': '7 days' };

/** The key shown once in the green card (its id), so revoking or deleting it closes the card. */
let revealedKeyId: string | null = null;
/** The key the roll dialog is open for. */
let rolling: Key | null = null;
/** Where the next page of keys starts (the list answers 100 at most per page); null after the last. */
let nextCursor: string | null = null;

/** The keys shown (every page loaded so far), in the API's order: rows are rebuilt from them on each change. */
let loaded: Key[] = [];

function keyRow(key: Key, replacedBy: Key | undefined): HTMLTableRowElement {
  const buttons = element('div', { className: 'row-actions' });
  const actions = element('td', { className: 'actions', attrs: { 'data-label': 'Actions' } }, [buttons]);
  // Only an active key can be rolled or revoked; an expired or revoked one can only go. A key already replaced by
  // a roll is not rolled again (its replacement is).
  if (key.status === 'active') {
    if (!replacedBy) buttons.append(rowButton('Roll', `Roll key ${key.name}`, () => openRoll(key)));
    buttons.append(rowButton('Revoke', `Revoke key ${key.name}`, () => revokeKey(key)));
  }
  buttons.append(rowButton('Delete', `Delete key ${key.name}`, () => deleteKey(key), 'button-danger'));

  return element('tr', { attrs: { 'data-key-id': key.id } }, [
    element('th', { text: key.name, attrs: { scope: 'row', 'data-label': 'Name' } }),
    // The prefix, and under it what the key may do, in words: its mode and its access (no column of its own, so
    // the table keeps its width at 1280 px).
    element('td', { attrs: { 'data-label': 'Key' } }, [
      element('div', {}, [
        element('code', { text: `${key.prefix}…` }),
        element('span', { className: 'key-access' }, [
          element('span', { text: key.mode === 'test' ? 'Test' : 'Live', className: `mode-tag mode-tag-${key.mode}` }),
          ` ${accessWords(key.scopes)}`,
        ]),
      ]),
    ]),
    timeCell('Created', key.created_at, ''),
    timeCell('Last used', key.last_used_at, 'never'),
    timeCell('Expires', key.expires_at, 'never'),
    element('td', { attrs: { 'data-label': 'Status' } }, [statusBadge(key, replacedBy)]),
    actions,
  ]);
}

/** Active, expired, revoked; or "Replaced" (still working until its expiry) for a key a roll replaced. */
function statusBadge(key: Key, replacedBy: Key | undefined): HTMLSpanElement {
  if (replacedBy && key.expires_at) {
    return element('span', { text: 'Replaced', className: 'badge badge-expired', attrs: { title: `Rolled: works until ${dateTime.format(new Date(key.expires_at))}` } });
  }
  return element('span', { text: STATUS_LABELS[key.status], className: `badge badge-${key.status}` });
}

function renderKeys({ keys, next_cursor: next }: Schemas['KeyList'], append = false): void {
  loaded = append ? [...loaded, ...keys] : keys;
  const replaced = replacements(loaded);
  $('keys-body').replaceChildren(...displayOrder(loaded, replaced).map((key) => keyRow(key, replaced.get(key.id))));
  const shown = loaded.length;
  $('keys-table').hidden = shown === 0;
  $('keys-empty').hidden = shown !== 0;
  nextCursor = next;
  $('more-keys').hidden = next === null;
}

async function moreKeys(): Promise<void> {
  const more = button('more-keys');
  more.disabled = true;
  try {
    clearError();
    renderKeys(await call(client.GET('/dashboard/api/keys', { params: { query: { ...modeQuery(), cursor: nextCursor ?? undefined } } })), true);
  } catch (error) {
    showError(error);
  } finally {
    more.disabled = false;
  }
}

function renderAccount(account: Schemas['Account']): void {
  const { plan, customers_used: used } = account;
  $('seller-name').textContent = account.seller.name;
  $('plan-name').textContent = plan.name.charAt(0).toUpperCase() + plan.name.slice(1);
  $('customers-used').textContent = `${used.toLocaleString()} of ${plan.customer_limit.toLocaleString()} customers used`;
  const meter = $<HTMLMeterElement>('customers-meter');
  meter.max = Math.max(plan.customer_limit, 1);
  meter.high = meter.max * 0.9;
  meter.value = used;
  $('api-version').textContent = account.api_version;
  const newer = account.api_versions_available;
  select('api-version-select').replaceChildren(...newer.map((version) => element('option', { text: version, attrs: { value: version } })));
  $('api-version-form').hidden = newer.length === 0;
}

async function moveApiVersion(event: Event): Promise<void> {
  event.preventDefault();
  const version = select('api-version-select').value;
  const sure = await confirmAction(
    `Move to API version ${version}?`,
    'Requests without a Customers-Version header are answered in the new version from now on. You cannot move back from the dashboard.',
    'Move',
  );
  if (!sure) return;
  try {
    clearError();
    renderAccount(await call(client.PATCH('/dashboard/api/account/api-version', { body: { api_version: version } })));
    announce(`Moved to API version ${version}.`);
  } catch (error) {
    showError(error);
  }
}

async function refresh(): Promise<void> {
  const [account, page] = await Promise.all([
    call(client.GET('/dashboard/api/account')),
    call(client.GET('/dashboard/api/keys', { params: { query: modeQuery() } })),
  ]);
  renderAccount(account);
  renderKeys(page);
}

/** Shows a new key once: after creating or rolling. */
function reveal(key: Schemas['CreatedKey'], title: string, overlapNote?: string): void {
  revealedKeyId = key.id;
  $('new-key-title').textContent = title;
  input('new-key-value').value = key.key;
  $('new-key-overlap').textContent = overlapNote ?? '';
  $('new-key-overlap').hidden = !overlapNote;
  $('copy-key').textContent = 'Copy';
  $('new-key').hidden = false;
  $('new-key').focus();
}

function hideKey(): void {
  revealedKeyId = null;
  input('new-key-value').value = '';
  $('new-key').hidden = true;
  $('copy-key').textContent = 'Copy';
  $('open-create').focus();
}

/** A key that stopped working must not stay on screen as if it were usable. */
function forget(keyId: string): void {
  if (revealedKeyId !== keyId) return;
  revealedKeyId = null;
  input('new-key-value').value = '';
  $('new-key').hidden = true;
}

async function revokeKey(key: Key): Promise<void> {
  const sure = await confirmAction(
    `Revoke “${key.name}”?`,
    'Requests with this key are refused from now on. The key stays in the list as revoked; this cannot be undone.',
    'Revoke key',
  );
  if (!sure) return;
  try {
    clearError();
    await call(client.POST('/dashboard/api/keys/{id}/revoke', byId(key.id)));
    forget(key.id);
    await refresh();
    announce(`Key “${key.name}” revoked.`);
  } catch (error) {
    showError(error);
  }
}

async function deleteKey(key: Key): Promise<void> {
  const sure = await confirmAction(
    `Delete “${key.name}” permanently?`,
    'The key stops working at once and disappears from this list. This cannot be undone.',
    'Delete key',
  );
  if (!sure) return;
  try {
    clearError();
    await call(client.DELETE('/dashboard/api/keys/{id}', byId(key.id)));
    forget(key.id);
    await refresh();
    announce(`Key “${key.name}” deleted.`);
  } catch (error) {
    showError(error);
  }
}

/** One row of none / read / write per resource of the generated scope list (a read-only resource has no write). */
function scopeRows(): HTMLElement[] {
  return GRANTS.map(({ resource, label, levels }) => {
    const nameId = `scope-${resource}-name`;
    const choices = (['none', ...levels] as Level[]).map((level) =>
      element('label', { className: 'check' }, [
        element('input', { attrs: { type: 'radio', name: `scope-${resource}`, value: level, id: `scope-${resource}-${level}`, ...(level === 'none' ? { checked: '' } : {}) } }),
        document.createTextNode(` ${level === 'none' ? 'None' : level === 'read' ? 'Read' : 'Write'}`),
      ]),
    );
    return element('div', { className: 'scope-row', attrs: { role: 'radiogroup', 'aria-labelledby': nameId } }, [
      element('span', { className: 'scope-name', text: label, attrs: { id: nameId } }),
      ...choices,
    ]);
  });
}

const restricted = () => input('key-kind-restricted').checked;

function showKind(): void {
  $('key-scopes').hidden = !restricted();
  if (!restricted()) fieldError($('key-scopes'), null);
}

/** The scopes the form grants: per resource, its level's scopes (write includes read). */
function chosenScopes(): string[] {
  const data = new FormData(form('create-form'));
  return scopesFor(GRANTS.map(({ resource }) => ({ resource, level: (data.get(`scope-${resource}`) ?? 'none') as Level })));
}

function openCreate(): void {
  form('create-form').reset();
  fieldError(input('key-name'), null);
  fieldError(input('key-expires'), null);
  fieldError($('key-scopes'), null);
  // A new key is of the data the page shows, unless the seller picks the other.
  input(`key-mode-${currentMode()}`).checked = true;
  showKind();
  input('key-expires').min = tomorrowUtc();
  dialog('create-dialog').showModal();
  input('key-name').focus();
}

/** A 400 from the server names its property (the error's `field`): show it beside that field. */
function showCreateError(error: unknown): void {
  const field = error instanceof RefusedError ? error.field : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (field === 'expires_at') fieldError(input('key-expires'), message.replace('expires_at', 'The expiration date'));
  else if (field === 'name') fieldError(input('key-name'), message.replace('name', 'The name'));
  else if (field === 'scopes') fieldError($('key-scopes'), message);
  else {
    dialog('create-dialog').close();
    showError(error);
  }
}

async function createKey(event: Event): Promise<void> {
  event.preventDefault();
  const name = input('key-name').value;
  const expires = input('key-expires').value;
  fieldError(input('key-name'), name.trim() === '' ? 'Enter a name for the key.' : null);
  fieldError(input('key-expires'), input('key-expires').validity.badInput ? 'Enter a full date, or leave it empty.' : null);
  const scopes = restricted() ? chosenScopes() : null;
  // The server refuses an empty list too; saying so here, at the permissions, is quicker and clearer.
  fieldError($('key-scopes'), scopes?.length === 0 ? 'Choose read or write for at least one resource, or create a secret key.' : null);
  const invalid = form('create-form').querySelector<HTMLElement>('[aria-invalid="true"]');
  if (invalid) {
    (invalid instanceof HTMLFieldSetElement ? invalid.querySelector('input') ?? invalid : invalid).focus();
    return;
  }
  const mode: Schemas['KeyMode'] = input('key-mode-test').checked ? 'test' : 'live';
  const create = button('create-button');
  create.disabled = true;
  try {
    clearError();
    const body = { name, mode, ...(expires ? { expires_at: expires } : {}), ...(scopes ? { scopes } : {}) };
    const created = await call(client.POST('/dashboard/api/keys', { body }));
    dialog('create-dialog').close();
    await refresh();
    // A key of the other mode is listed in that mode's view, not this one: say where.
    const elsewhere = created.mode === currentMode() ? undefined : `It is a ${created.mode} key: it is listed when viewing ${created.mode} data.`;
    reveal(created, `Key “${created.name}” created`, elsewhere);
    announce(`Key “${created.name}” created. Copy it now: you won't see it again.`);
  } catch (error) {
    showCreateError(error);
    form('create-form').querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  } finally {
    create.disabled = false;
  }
}

function openRoll(key: Key): void {
  rolling = key;
  $('roll-name').textContent = key.name;
  form('roll-form').reset();
  dialog('roll-dialog').showModal();
  form('roll-form').querySelector<HTMLInputElement>('input[name="overlap"]:checked')?.focus();
}

async function rollKey(event: Event): Promise<void> {
  event.preventDefault();
  const key = rolling;
  if (!key) return;
  const overlap = new FormData(form('roll-form')).get('overlap') as Overlap;
  const roll = button('roll-button');
  roll.disabled = true;
  try {
    clearError();
    const rolled = await call(client.POST('/dashboard/api/keys/{id}/roll', { ...byId(key.id), body: { overlap } }));
    dialog('roll-dialog').close();
    await refresh();
    const until = rolled.previous.expires_at ? dateTime.format(new Date(rolled.previous.expires_at)) : 'it is revoked';
    reveal(rolled.key, `Key “${rolled.key.name}” rolled`, `The old key (${rolled.previous.prefix}…) keeps working until ${until}.`);
    announce(`Key “${key.name}” rolled: the old key works for ${OVERLAP_LABELS[String(overlap)] ?? overlap} more. Copy the new key now.`);
  } catch (error) {
    dialog('roll-dialog').close();
    showError(error);
  } finally {
    roll.disabled = false;
  }
}

/** The test view's wipe, after a confirm: the counts of what went, on the page and announced. */
async function wipeTestData(): Promise<void> {
  const sure = await confirmAction(
    'Delete all test data?',
    'Every test customer, test webhook endpoint (with its deliveries) and test event is deleted now. Live data and your keys stay. This cannot be undone.',
    'Delete test data',
  );
  if (!sure) return;
  const wipe = button('wipe-test-data');
  wipe.disabled = true;
  try {
    clearError();
    const wiped = await call(client.DELETE('/dashboard/api/test_data'));
    const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
    const text = `Test data deleted: ${count(wiped.customers, 'customer', 'customers')}, ${count(wiped.webhook_endpoints, 'webhook endpoint', 'webhook endpoints')} and ${count(wiped.events, 'event', 'events')}.`;
    $('wipe-result').textContent = text;
    $('wipe-result').hidden = false;
    announce(text);
  } catch (error) {
    showError(error);
  } finally {
    wipe.disabled = false;
  }
}

function tomorrowUtc(): string {
  return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
}

$('key-scope-rows').replaceChildren(...scopeRows());
for (const kind of ['key-kind-secret', 'key-kind-restricted']) input(kind).addEventListener('change', showKind);
$('test-data').hidden = currentMode() !== 'test';
$('wipe-test-data').addEventListener('click', () => void wipeTestData());
$('open-create').addEventListener('click', openCreate);
$('cancel-create').addEventListener('click', () => dialog('create-dialog').close());
form('create-form').addEventListener('submit', (event) => void createKey(event));
form('roll-form').addEventListener('submit', (event) => void rollKey(event));
$('cancel-roll').addEventListener('click', () => dialog('roll-dialog').close());
form('api-version-form').addEventListener('submit', (event) => void moveApiVersion(event));
$('copy-key').addEventListener('click', () => void copyValue(input('new-key-value'), $('copy-key'), 'Key'));
$('dismiss-key').addEventListener('click', hideKey);
$('sign-out').addEventListener('click', () => void signOut());
$('more-keys').addEventListener('click', () => void moreKeys());
refresh().catch(showError);
