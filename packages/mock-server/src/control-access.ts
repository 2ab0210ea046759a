import { ApiError } from '@customers-api/core';

type Header = (name: string) => string | undefined;

/** Host names that only this machine can use: what a DNS-rebinding page can never send as `Host`. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The `Host` header's name without the port, lower-case; undefined when there is none.
 *
 * @example
 * hostName('[::1]:4010'); // "[::1]"
 */
export function hostName(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const name = host.trim().toLowerCase();
  return name.startsWith('[') ? name.slice(0, name.indexOf(']') + 1) : name.replace(/:\d*$/, '');
}

/**
 * Whether an address or name to listen on is loopback only (`127.0.0.1`, `localhost`, `::1`).
 *
 * @example
 * isLoopbackListen('0.0.0.0'); // false
 */
export function isLoopbackListen(host: string): boolean {
  return LOOPBACK_NAMES.has(hostName(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host) ?? '') || host.startsWith('127.');
}

/**
 * Throws the 403 for a control request the mock must not answer: without a token, any `Host` but a loopback
 * name (a web page reaching the mock through DNS rebinding sends its own name); with a `--control-token`,
 * any request without `Authorization: Bearer <token>`.
 *
 * @example
 * checkControlAccess((name) => request.headers[name], undefined); // 403 for Host: attacker.example
 */
export function checkControlAccess(header: Header, controlToken: string | undefined): void {
  if (controlToken !== undefined) {
    if (header('authorization') === `Bearer ${controlToken}`) return;
    throw new ApiError(403, 'The control API needs Authorization: Bearer with the token the mock was started with (--control-token)');
  }
  const name = hostName(header('host'));
  if (name !== undefined && LOOPBACK_NAMES.has(name)) return;
  throw new ApiError(
    403,
    `The control API answers only Host 127.0.0.1, localhost or [::1] (got ${name ?? 'none'}); start the mock with --control-token to reach it by another name`,
  );
}
