import type { FastifyInstance } from 'fastify';
import { isSecureRequest } from './cookies.js';

/** Everything the pages load comes from this server: no inline scripts or styles, no framing. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // same-origin (not no-referrer): browsers then still send a real Origin on same-origin POSTs.
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'cache-control': 'no-store',
};

/** Security headers on every response of the scope (pages, assets, JSON and its errors). */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(HEADERS);
    if (isSecureRequest(request)) reply.header('strict-transport-security', 'max-age=31536000');
  });
}
