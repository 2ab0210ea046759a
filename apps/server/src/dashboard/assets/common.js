// What every Settings page shares: the JSON API call, messages, the table-cell and dialog helpers, copying a
// value shown once, and signing out. Text is only ever set with textContent, never parsed as HTML.

export const $ = (id) => document.getElementById(id);
// Dates are shown in UTC and say so, like the hints (a key's expiry date is 00:00 UTC): "26 Nov 2026, 09:05 UTC".
const utcDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const utcTime = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });
export const dateTime = { format: (date) => `${utcDate.format(date)}, ${utcTime.format(date)} UTC` };

/** How long a toast stays on screen; it is also read out once (aria-live). */
const TOAST_MS = 8_000;

export class SignedOut extends Error {}

/** A 503 (the server's database does not answer): a plain sentence, not the server's reason. */
export const UNAVAILABLE_MESSAGE = 'The service is unavailable right now; try again in a moment.';

export async function api(method, path, body) {
  const response = await fetch(`/dashboard/api${path}`, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) {
    // The page itself answers the signed-out page now: it says why and brings the seller back here after sign-in.
    window.location.reload();
    throw new SignedOut();
  }
  if (response.status === 204) return undefined;
  if (response.status === 503) throw new Error(UNAVAILABLE_MESSAGE);
  const data = await response.json();
  if (!response.ok) throw new Error(data.message ?? `Request failed (${response.status})`);
  return data;
}

/**
 * Says what an action did: a visible toast in the page's polite live region (`#toasts`), so screen readers hear it
 * too; pages without one fall back to their hidden `#status` region.
 */
export function announce(text) {
  const region = $('toasts');
  if (!region) {
    $('status').textContent = text;
    return;
  }
  const toast = element('div', { className: 'toast' }, [element('span', { text })]);
  const close = element('button', { text: 'Dismiss', className: 'button button-small button-quiet', attrs: { type: 'button' } });
  close.addEventListener('click', () => toast.remove());
  toast.append(close);
  region.append(toast);
  setTimeout(() => toast.remove(), TOAST_MS);
}

/** Shows a message beside a form field and marks the field invalid (`aria-invalid`); `null` clears it. */
export function fieldError(input, message) {
  const box = $(`${input.id}-error`);
  box.textContent = message ?? '';
  box.hidden = message === null;
  if (message === null) input.removeAttribute('aria-invalid');
  else input.setAttribute('aria-invalid', 'true');
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

/** A `<time>` in UTC (date and time of day as two parts, so a narrow column breaks between them and nowhere else). */
export function timeElement(iso) {
  const date = new Date(iso);
  return element('time', { attrs: { datetime: iso, title: iso } }, [
    element('span', { text: utcDate.format(date), className: 'date' }),
    ' ',
    element('span', { text: `${utcTime.format(date)} UTC`, className: 'clock' }),
  ]);
}

export function timeCell(label, iso, empty) {
  const cell = element('td', { attrs: { 'data-label': label } });
  cell.append(iso === null ? element('span', { text: empty, className: 'muted' }) : timeElement(iso));
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
  window.location.assign('/dashboard?reason=signed-out');
}
