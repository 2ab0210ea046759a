// Only a logger needs this: it loads with the error texts (error-hints.ts) for clients that log; imports nothing at
// run time.

/** Headers whose values never reach a logger. */
const SECRET = new Set(['x-api-key', 'authorization', 'cookie', 'set-cookie', 'proxy-authorization']);

/** A plain, lower-cased copy of `headers` with secrets replaced by `[redacted]`, safe to log. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = SECRET.has(name.toLowerCase()) ? '[redacted]' : value;
  });
  return out;
}
