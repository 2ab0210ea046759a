/** Headers whose values never reach a logger. */
const SECRET = new Set(['x-api-key', 'authorization', 'cookie', 'set-cookie', 'proxy-authorization']);

/** The response's `X-Request-Id`, the id the server logged the request under. */
export function requestIdOf(headers: Headers): string | undefined {
  return headers.get('x-request-id') ?? undefined;
}

/** A plain, lower-cased copy of `headers` with secrets replaced by `[redacted]`, safe to log. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = SECRET.has(name.toLowerCase()) ? '[redacted]' : value;
  });
  return out;
}
