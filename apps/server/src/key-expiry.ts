const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An API key's expiry as given by an operator (CLI) or a seller (dashboard): an ISO 8601 date or date-time in
 * the future, normalised to ISO 8601 UTC. A date alone means 00:00 UTC that day. Returns the reason otherwise.
 * Dates that do not exist (2030-02-30, 24:00) are refused rather than rolled over to another day.
 *
 * @example
 * parseKeyExpiry('2030-01-31', new Date()); // { ok: true, value: '2030-01-31T00:00:00.000Z' }
 */
export function parseKeyExpiry(
  text: string,
  now: Date,
): { ok: true; value: string } | { ok: false; reason: 'format' | 'past' } {
  const at = Date.parse(text);
  if (!isRealDateTime(text) || Number.isNaN(at)) return { ok: false, reason: 'format' };
  if (at <= now.getTime()) return { ok: false, reason: 'past' };
  return { ok: true, value: new Date(at).toISOString() };
}

function isRealDateTime(text: string): boolean {
  const match = ISO_8601.exec(text);
  if (!match) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const offset = match[7] ?? 'Z';
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return (
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    (offset === 'Z' || (Number(offset.slice(1, 3)) <= 23 && Number(offset.slice(-2)) <= 59))
  );
}
