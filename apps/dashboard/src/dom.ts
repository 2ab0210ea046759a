// What every Settings page shares: messages, the table-cell and dialog helpers, copying a value shown once, and
// signing out. Text is only ever set with textContent, never parsed as HTML.

import { call, client, RefusedError, SignedOut } from './api.js';

/** The element with this id; the page's HTML (the server's shell) is written with these ids, so a missing one is a bug. */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is missing from the page`);
  return node as T;
}
export const input = (id: string) => $<HTMLInputElement>(id);
export const select = (id: string) => $<HTMLSelectElement>(id);
export const button = (id: string) => $<HTMLButtonElement>(id);
export const form = (id: string) => $<HTMLFormElement>(id);
export const dialog = (id: string) => $<HTMLDialogElement>(id);

// Dates are shown in UTC and say so, like the hints (a key's expiry date is 00:00 UTC): "26 Nov 2026, 09:05 UTC".
const utcDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const utcTime = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });
export const dateTime = { format: (date: Date) => `${utcDate.format(date)}, ${utcTime.format(date)} UTC` };

/** How long a toast stays on screen; it is also read out once (aria-live). */
const TOAST_MS = 8_000;

/**
 * Says what an action did: a visible toast in the page's polite live region (`#toasts`), so screen readers hear it
 * too; pages without one fall back to their hidden `#status` region. One toast at a time: a new one replaces the
 * last (three stacked ones covered the rows' buttons for 8 s).
 */
export function announce(text: string): void {
  const region = document.getElementById('toasts');
  if (!region) {
    $('status').textContent = text;
    return;
  }
  const toast = element('div', { className: 'toast' }, [element('span', { text })]);
  const close = element('button', { text: 'Dismiss', className: 'button button-small button-quiet', attrs: { type: 'button' } });
  close.addEventListener('click', () => toast.remove());
  toast.append(close);
  region.replaceChildren(toast);
  setTimeout(() => toast.remove(), TOAST_MS);
}

/** Shows a message beside a form field and marks the field invalid (`aria-invalid`); `null` clears it. */
export function fieldError(field: HTMLElement, message: string | null): void {
  const box = $(`${field.id}-error`);
  box.textContent = message ?? '';
  box.hidden = message === null;
  if (message === null) field.removeAttribute('aria-invalid');
  else field.setAttribute('aria-invalid', 'true');
}

/**
 * A 400 or 409 about one property (the server names it in the error body's `field`: `url` for "url must be an http
 * or https URL") is shown beside that field, in the server's words, the same on every form (Add and Edit endpoint
 * alike), the field marked invalid and focused. `fields` maps properties to their field (an input, or a fieldset of
 * choices); each has a `${id}-error` box. False when the error names none of them (the caller shows it in the
 * page's error box).
 */
export function showFieldError(error: unknown, fields: Record<string, HTMLElement>): boolean {
  const name = error instanceof RefusedError ? error.field : undefined;
  const field = name !== undefined && Object.hasOwn(fields, name) ? fields[name] : undefined;
  if (!field) return false;
  fieldError(field, (error as RefusedError).message);
  (field instanceof HTMLFieldSetElement ? field.querySelector('input') ?? field : field).focus();
  return true;
}

/** Clears what {@link showFieldError} showed. */
export function clearFieldErrors(fields: Record<string, HTMLElement>): void {
  for (const field of Object.values(fields)) fieldError(field, null);
}

export function showError(error: unknown): void {
  if (error instanceof SignedOut) return;
  const box = $('error');
  box.textContent = error instanceof Error ? error.message : String(error);
  box.hidden = false;
}

export function clearError(): void {
  $('error').hidden = true;
  $('error').textContent = '';
}

interface ElementOptions {
  text?: string;
  className?: string;
  attrs?: Record<string, string>;
}

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  { text, className, attrs }: ElementOptions = {},
  children: (Node | string)[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attrs ?? {})) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

/** A `<time>` in UTC (date and time of day as two parts, so a narrow column breaks between them and nowhere else). */
export function timeElement(iso: string): HTMLTimeElement {
  const date = new Date(iso);
  return element('time', { attrs: { datetime: iso, title: iso } }, [
    element('span', { text: utcDate.format(date), className: 'date' }),
    ' ',
    element('span', { text: `${utcTime.format(date)} UTC`, className: 'clock' }),
  ]);
}

export function timeCell(label: string, iso: string | null | undefined, empty: string): HTMLTableCellElement {
  const cell = element('td', { attrs: { 'data-label': label } });
  cell.append(iso === null || iso === undefined ? element('span', { text: empty, className: 'muted' }) : timeElement(iso));
  return cell;
}

/** A small button for a table row; `label` is its accessible name (the visible text alone is ambiguous). */
export function rowButton(text: string, label: string, onClick: () => unknown, className = ''): HTMLButtonElement {
  const node = element('button', { text, className: `button button-small ${className}`.trim(), attrs: { type: 'button', 'aria-label': label } });
  node.addEventListener('click', () => void onClick());
  return node;
}

/**
 * Resolves true when the seller confirms in the modal dialog (Escape and Cancel resolve false). The confirm button is
 * red for what cannot be undone (the default), the page's primary colour for what can (`{ danger: false }`).
 */
export function confirmAction(title: string, text: string, confirmLabel: string, { danger = true } = {}): Promise<boolean> {
  const box = dialog('confirm');
  $('confirm-title').textContent = title;
  $('confirm-text').textContent = text;
  $('confirm-button').textContent = confirmLabel;
  $('confirm-button').className = `button ${danger ? 'button-danger' : 'button-primary'}`;
  box.returnValue = '';
  box.showModal();
  return new Promise((resolve) => {
    box.addEventListener('close', () => resolve(box.returnValue === 'confirm'), { once: true });
  });
}

/** Copies a read-only input's value (a key or secret shown once) and says so on the button. */
export async function copyValue(field: HTMLInputElement, copy: HTMLElement, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    field.select();
    document.execCommand('copy');
  }
  copy.textContent = 'Copied';
  announce(`${what} copied to the clipboard.`);
}

export async function signOut(): Promise<void> {
  try {
    await call(client.DELETE('/dashboard/api/session'));
  } catch (error) {
    showError(error);
    return;
  }
  window.location.assign('/dashboard?reason=signed-out');
}

/** Runs an action, showing what went wrong in the page's error box. */
export async function act(work: () => Promise<unknown>): Promise<void> {
  try {
    clearError();
    await work();
  } catch (error) {
    showError(error);
  }
}
