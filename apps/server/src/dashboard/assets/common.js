// What every Settings page shares: the JSON API call, messages, the table-cell and dialog helpers, copying a
// value shown once, and signing out. Text is only ever set with textContent, never parsed as HTML.

export const $ = (id) => document.getElementById(id);
export const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export class SignedOut extends Error {}

export async function api(method, path, body) {
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

export function announce(text) {
  $('status').textContent = text;
}

export function showError(error) {
  if (error instanceof SignedOut) return;
  const box = $('error');
  box.textContent = error instanceof Error ? error.message : String(error);
  box.hidden = false;
}

export function clearError() {
  $('error').hidden = true;
  $('error').textContent = '';
}

export function element(tag, { text, className, attrs } = {}, children = []) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attrs ?? {})) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

export function timeCell(label, iso, empty) {
  const cell = element('td', { attrs: { 'data-label': label } });
  if (iso === null) cell.append(element('span', { text: empty, className: 'muted' }));
  else cell.append(element('time', { text: dateTime.format(new Date(iso)), attrs: { datetime: iso, title: iso } }));
  return cell;
}

/** A small button for a table row; `label` is its accessible name (the visible text alone is ambiguous). */
export function rowButton(text, label, onClick, className = '') {
  const button = element('button', { text, className: `button button-small ${className}`.trim(), attrs: { type: 'button', 'aria-label': label } });
  button.addEventListener('click', onClick);
  return button;
}

/** Resolves true when the seller confirms in the modal dialog (Escape and Cancel resolve false). */
export function confirmAction(title, text, confirmLabel) {
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

/** Copies a read-only input's value (a key or secret shown once) and says so on the button. */
export async function copyValue(input, button, what) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand('copy');
  }
  button.textContent = 'Copied';
  announce(`${what} copied to the clipboard.`);
}

export async function signOut() {
  try {
    await api('DELETE', '/session');
  } catch (error) {
    showError(error);
    return;
  }
  window.location.assign('/dashboard');
}
