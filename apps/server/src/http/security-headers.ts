import type { FastifyInstance } from 'fastify';

/** Everything a page loads comes from this server: no inline scripts or styles, no plugins, no framing. */
function contentSecurityPolicy({ styleSrc = "'self'", imgSrc = "'self'" } = {}): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src ${styleSrc}`,
    `img-src ${imgSrc}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The dashboard's pages. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * The API reference (/docs): Swagger UI's stylesheet draws its icons from data: URLs, and its script applies one
 * fixed inline style (allowed by its hash alone; a new Swagger UI version may log it as blocked, nothing breaks).
 */
export const DOCS_CONTENT_SECURITY_POLICY = contentSecurityPolicy({
  styleSrc: "'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  imgSrc: "'self' data:",
});

const HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // same-origin (not no-referrer): browsers then still send a real Origin on same-origin POSTs.
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'cache-control': 'no-store',
};

/**
 * Security headers on every response of the scope (pages, assets, JSON and its errors), with the given
 * Content-Security-Policy; HSTS when the browser came over HTTPS (directly or through a trusted proxy).
 */
export function registerSecurityHeaders(app: FastifyInstance, contentSecurityPolicy: string): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(HEADERS).header('content-security-policy', contentSecurityPolicy);
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
  });
}
