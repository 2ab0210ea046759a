import type { FastifyRequest } from 'fastify';
import { SESSION_TTL_MS } from './sessions.js';

export const SESSION_COOKIE = 'dashboard_session';

/** A cookie's value from a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Whether the browser reached us over HTTPS: directly, or through a trusted proxy that says so
 * (X-Forwarded-Proto counts only with `--trust-proxy`, as for the Origin check).
 */
export function isSecureRequest(request: Pick<FastifyRequest, 'protocol'>): boolean {
  return request.protocol === 'https';
}

/** The session cookie: HttpOnly, SameSite=Strict, only sent to /dashboard, Secure over HTTPS. */
export function sessionCookie(id: string, secure: boolean): string {
  return cookie(id, Math.floor(SESSION_TTL_MS / 1000), secure);
}

export function clearedSessionCookie(secure: boolean): string {
  return cookie('', 0, secure);
}

function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [`${SESSION_COOKIE}=${value}`, 'Path=/dashboard', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict'];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
