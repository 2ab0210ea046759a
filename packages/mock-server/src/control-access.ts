import { ApiError, isJsonContentType } from '@customers-api/core';

type Header = (name: string) => string | undefined;

/** Host names that only this machine can use: what a DNS-rebinding page can never send as `Host`. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A whole `Host` value: a bracketed IPv6 address or a name without brackets or colons, then at most a port. */
const HOST_SHAPE = /^(\[[0-9a-f:.]+\]|[^[\]:]+)(?::\d*)?$/;

/**
 * The `Host` header's name without the port, lower-case; undefined when there is none. A value of any other
 * shape (`[::1].evil.example`) is returned whole, so it never equals a loopback name.
 *
 * @example
 * hostName('[::1]:4010'); // "[::1]"
 */
export function hostName(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const name = host.trim().toLowerCase();
  return HOST_SHAPE.exec(name)?.[1] ?? name;
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

/** Methods that change nothing (OPTIONS is answered 405): every other control request changes the mock's state. */
const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Throws the 403 for a control request the mock must not answer: without a token, any `Host` but a loopback
 * name (a web page reaching the mock through DNS rebinding sends its own name); with a `--control-token`,
 * any request without `Authorization: Bearer <token>`. Without a token, a request that changes state also needs
 * `Content-Type: application/json` (415): a page on localhost can send a body-less or `text/plain` POST without
 * a CORS preflight, never a JSON one, and the control API refuses every preflight.
 *
 * @example
 * checkControlAccess((name) => request.headers[name], undefined, 'GET'); // 403 for Host: attacker.example
 */
export function checkControlAccess(header: Header, controlToken: string | undefined, method: string): void {
  if (controlToken !== undefined) {
    if (header('authorization') === `Bearer ${controlToken}`) return;
    throw new ApiError(403, 'The control API needs Authorization: Bearer with the token the mock was started with (--control-token)');
  }
  const name = hostName(header('host'));
  if (name === undefined || !LOOPBACK_NAMES.has(name)) {
    throw new ApiError(
      403,
      `The control API answers only Host 127.0.0.1, localhost or [::1] (got ${name ?? 'none'}); start the mock with --control-token to reach it by another name`,
    );
  }
  if (!READ_ONLY.has(method.toUpperCase()) && !isJsonContentType(header('content-type'))) {
    throw new ApiError(
      415,
      `A control request that changes the mock needs Content-Type: application/json, even without a body (got ${header('content-type') ?? 'none'}); or start the mock with --control-token and send it`,
    );
  }
}
