/** Shown of an API key: its first 12 characters (`sk_live_` and four more), like the dashboard's prefix. */
export const KEY_PREFIX_LENGTH = 12;

/** What the journal shows instead of a credential it must not keep. */
export const REDACTED = '[redacted]';

/** Headers that carry a credential of another kind (a session, a proxy's): never kept, even in part. */
const WHOLLY_SECRET = new Set(['cookie', 'proxy-authorization']);

/** The shape of an API key (any kind or mode), so a prefix of it names the key without giving it away. */
const API_KEY_SHAPE = /^[sr]k_(live|test)_[A-Za-z0-9]+$/;

/**
 * A header value as the journal shows it: API keys (`X-API-Key`, `Authorization: Bearer sk_…`) cut to their
 * first 12 characters followed by `…`; `Cookie`, `Proxy-Authorization`, any other `Authorization` (Basic, a
 * Bearer that is not an API key) and any value containing one of `secrets` (the control token) redacted whole:
 * a prefix of a password or a token is part of it.
 *
 * @example
 * journalHeader('x-api-key', 'sk_live_abcdefgh…'); // "sk_live_abcd…"
 * journalHeader('authorization', 'Bearer sk_live_abcdefgh…'); // "Bearer sk_live_abcd…"
 * journalHeader('authorization', 'Basic dXNlcjpwYXNz'); // "[redacted]"
 */
export function journalHeader(name: string, value: string, secrets: readonly string[] = []): string {
  const lower = name.toLowerCase();
  if (WHOLLY_SECRET.has(lower) || secrets.some((secret) => secret !== '' && value.includes(secret))) return REDACTED;
  if (lower === 'x-api-key') return prefixOf(value.trim());
  if (lower === 'authorization') {
    const bearer = /^(Bearer)[ \t]+(\S+)[ \t]*$/i.exec(value);
    return bearer && API_KEY_SHAPE.test(bearer[2]!) ? `${bearer[1]} ${prefixOf(bearer[2]!)}` : REDACTED;
  }
  return value;
}

function prefixOf(key: string): string {
  return key.length <= KEY_PREFIX_LENGTH ? key : `${key.slice(0, KEY_PREFIX_LENGTH)}…`;
}
