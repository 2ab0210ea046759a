import type { FastifyRequest } from 'fastify';
import { readCookie } from './cookies.js';

/** Remembers the dashboard page a signed-out visitor asked for, to open it after the next sign-in. */
export const RETURN_TO_COOKIE = 'dashboard_return_to';

/** How long the page to return to is kept: a sign-in link is asked for and used well within it. */
const RETURN_TO_MAX_AGE_SECONDS = 3_600;

const MAX_RETURN_PATH_LENGTH = 512;

/**
 * The path a sign-in may send the browser to: a dashboard page of this origin only (`/dashboard/…`, not the JSON
 * API, not the sign-in route), normalised; undefined for anything else (another origin, `//host`, backslashes,
 * control characters, dot segments leading out of /dashboard), so no value can make it an open redirect.
 *
 * @example
 * safeReturnPath('/dashboard/settings/webhooks?tab=1'); // '/dashboard/settings/webhooks?tab=1'
 * safeReturnPath('//evil.example/dashboard/'); // undefined
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_RETURN_PATH_LENGTH) return undefined;
  // Browsers read a backslash as a slash and drop tabs and newlines: refuse rather than guess.
  if (!value.startsWith('/dashboard/') || /[\\\u0000-\u001f\u007f]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, 'http://dashboard.invalid');
  } catch {
    return undefined;
  }
  const path = url.pathname;
  if (url.origin !== 'http://dashboard.invalid' || !path.startsWith('/dashboard/') || path.startsWith('//')) return undefined;
  if (path === '/dashboard/api' || path.startsWith('/dashboard/api/') || path.startsWith('/dashboard/login')) return undefined;
  return `${path}${url.search}`;
}

/** The page to return to from the request's cookie, if it is a safe one. */
export function returnPathOf(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const raw = readCookie(request.headers.cookie, RETURN_TO_COOKIE);
  if (raw === undefined) return undefined;
  try {
    return safeReturnPath(decodeURIComponent(raw));
  } catch {
    return undefined;
  }
}

/** The cookie keeping `path` (already safe) until the next sign-in; HttpOnly, SameSite=Strict, /dashboard only. */
export function returnToCookie(path: string, secure: boolean): string {
  return cookie(encodeURIComponent(path), RETURN_TO_MAX_AGE_SECONDS, secure);
}

/** Clears the page to return to (once it has been used). */
export function clearedReturnToCookie(secure: boolean): string {
  return cookie('', 0, secure);
}

function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [`${RETURN_TO_COOKIE}=${value}`, 'Path=/dashboard', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict'];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
