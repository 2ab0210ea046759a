/** The largest request body a log row keeps, in bytes; a larger one is kept as `{"truncated":true}`. */
export const REQUEST_BODY_LIMIT_BYTES = 8_192;

/** Property names that may hold a secret: their values are never written to a log row. */
const SECRET_NAME = /secret|password|passwd|token|api[_-]?key|^key$|authorization|credential/i;

const REDACTED = '[redacted]';

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) out[name] = SECRET_NAME.test(name) ? REDACTED : redact(inner);
  return out;
}

/**
 * What a log row keeps of a write's body (as JSON text): the parsed body with secret-like properties redacted;
 * null without a body or when it is not JSON (it was answered 400 and its error says why).
 *
 * @example
 * loggedRequestBody(Buffer.from('{"url":"https://x.example","secret":"whsec_…"}')) // '{"url":"https://x.example","secret":"[redacted]"}'
 */
export function loggedRequestBody(bytes: Uint8Array | undefined | null): string | null {
  if (!bytes || bytes.length === 0) return null;
  if (bytes.length > REQUEST_BODY_LIMIT_BYTES) return '{"truncated":true}';
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'));
  } catch {
    return null;
  }
  return JSON.stringify(redact(parsed));
}

/** A 4xx/5xx answer's body when it is the API's `{ error, message }`, as JSON text; null otherwise. */
export function loggedErrorBody(payload: unknown): string | null {
  if (typeof payload !== 'string' || payload.length > REQUEST_BODY_LIMIT_BYTES) return null;
  try {
    const parsed = JSON.parse(payload) as { error?: unknown; message?: unknown };
    if (typeof parsed.error !== 'string' || typeof parsed.message !== 'string') return null;
    return JSON.stringify({ error: parsed.error, message: parsed.message });
  } catch {
    return null;
  }
}
