const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An API key's expiry as given by an operator (CLI) or a seller (dashboard): an ISO 8601 date or date-time in
 * the future, normalised to ISO 8601 UTC. A date alone means 00:00 UTC that day. Returns the reason otherwise.
 *
 * @example
 * parseKeyExpiry('2030-01-31', new Date()); // { ok: true, value: '2030-01-31T00:00:00.000Z' }
 */
export function parseKeyExpiry(
  text: string,
  now: Date,
): { ok: true; value: string } | { ok: false; reason: 'format' | 'past' } {
  const at = Date.parse(text);
  if (!ISO_8601.test(text) || Number.isNaN(at)) return { ok: false, reason: 'format' };
  if (at <= now.getTime()) return { ok: false, reason: 'past' };
  return { ok: true, value: new Date(at).toISOString() };
}
