import { hostname, networkInterfaces } from 'node:os';

/**
 * The names this machine answers to in a `Host` header: loopback names, its host name and every address of its
 * interfaces, plus the address it listens on. A DNS-rebinding page sends its own name, never one of these.
 *
 * @example
 * ownHostNames('0.0.0.0'); // Set { 'localhost', '127.0.0.1', '[::1]', 'web-1', '10.0.0.5', … }
 */
export function ownHostNames(listenHost: string): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', hostname().toLowerCase()]);
  for (const address of Object.values(networkInterfaces()).flat()) {
    if (address) names.add(address.family === 'IPv6' ? `[${address.address.toLowerCase()}]` : address.address);
  }
  names.add(listenHost.includes(':') ? `[${listenHost.toLowerCase()}]` : listenHost.toLowerCase());
  return names;
}

/**
 * The name of a `Host` value without its port, lower-case; a value of another shape is returned whole (it then
 * matches no name).
 *
 * @example
 * hostNameOf('[::1]:9464'); // "[::1]"
 */
export function hostNameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const value = host.trim().toLowerCase();
  return /^(\[[0-9a-f:.]+\]|[^[\]:]+)(?::\d*)?$/.exec(value)?.[1] ?? value;
}
