import type { DeprecationNotice, Logger } from '../core/logger';

/**
 * Loaded through error-hints.ts (one lazy chunk) on the first response carrying `Deprecation` (client.ts), so
 * clients on a current version never download these texts. Imports nothing at run time: a module shared with the
 * entry chunk would become a chunk of its own.
 */

/** The URL of the `Link` header's `rel="deprecation"` entry, if any. */
export function deprecationLink(link: string | null): string | undefined {
  return link?.match(/<([^>]*)>[^,]*;\s*rel="?deprecation"?/i)?.[1];
}

/** `@1798243200` (RFC 9745) as an ISO date, or the value as sent when it is not that form. */
function when(deprecation: string): string {
  const seconds = /^@(-?\d+)$/.exec(deprecation.trim())?.[1];
  return seconds === undefined ? deprecation : new Date(Number(seconds) * 1000).toISOString().slice(0, 10);
}

/** Like a broken logger, a broken `onDeprecation` must not break the request. */
function safely(report: () => void): void {
  try {
    report();
  } catch {
    // swallowed on purpose
  }
}

/** The operations each client (known by its options object, one per client) has already reported. */
const reported = new WeakMap<object, Set<string>>();

/**
 * Reports a deprecated version once per client and operation: to the client's `onDeprecation` when given, else to
 * its logger as a `deprecation` event, else with `console.warn`.
 */
export function reportDeprecation(
  client: { onDeprecation?: ((notice: DeprecationNotice) => void) | undefined },
  base: { method: string; url: string; attempt: number },
  path: string,
  headers: Headers,
  logger: Logger | undefined,
): void {
  const operation = `${base.method} ${path}`;
  let seen = reported.get(client);
  if (!seen) reported.set(client, (seen = new Set()));
  if (seen.has(operation)) return;
  seen.add(operation);
  const { onDeprecation } = client;
  const notice: DeprecationNotice = {
    operation,
    version: headers.get('customers-version') ?? undefined,
    deprecation: headers.get('deprecation')!,
    sunset: headers.get('sunset') ?? undefined,
    link: deprecationLink(headers.get('link')),
  };
  if (onDeprecation) return safely(() => onDeprecation(notice));
  const message =
    `${notice.operation} was answered in API version ${notice.version ?? '(unknown)'}, deprecated since ${when(notice.deprecation)}` +
    (notice.sunset ? `; it stops working on ${notice.sunset}` : '') +
    '. Move to a newer version (the apiVersion option; newer SDK releases send the newest)' +
    (notice.link ? `: ${notice.link}` : '.');
  if (logger) safely(() => logger({ ...base, ...notice, type: 'deprecation', message }));
  else console.warn(`[customers-api] ${message}`);
}
