import type { IncomingHttpHeaders } from 'node:http';

/**
 * CSRF defence for state-changing dashboard requests, besides the SameSite=Strict cookie: the browser's
 * Origin (else Referer) must name this very host. Browsers always send Origin on cross-origin POST and DELETE,
 * and a page cannot forge it; a request with neither header is refused.
 */
export function isSameOriginRequest(headers: IncomingHttpHeaders): boolean {
  const source = headers.origin ?? headers.referer;
  if (!source || source === 'null') return false;
  let sourceHost: string;
  try {
    sourceHost = new URL(source).host;
  } catch {
    return false;
  }
  // Behind a reverse proxy the browser's host may arrive as X-Forwarded-Host (a header pages cannot set).
  const forwarded = headers['x-forwarded-host'];
  const hosts = [headers.host, ...(Array.isArray(forwarded) ? forwarded : [forwarded])].flatMap((h) =>
    h ? h.split(',').map((v) => v.trim().toLowerCase()) : [],
  );
  return hosts.includes(sourceHost.toLowerCase());
}
