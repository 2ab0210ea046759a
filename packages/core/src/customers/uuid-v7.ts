const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

// Random bytes are drawn 64 ids at a time (like Node's randomUUID pool): one getRandomValues call per 64 ids.
const BYTES_PER_ID = 10;
const pool = new Uint8Array(BYTES_PER_ID * 64);
let offset = pool.length;

/**
 * A time-ordered UUID, version 7 (RFC 9562 §5.7): the Unix time in milliseconds (48 bits), then 74 random bits.
 * New customer ids sort by creation time, so a create appends to the end of the primary-key B-tree instead of
 * touching a random page of it (the cost of random UUIDv4 keys in a table of a million rows: issue 28,
 * BENCHMARKS.md). The 74 random bits keep ids unguessable; tenancy never rests on them anyway.
 *
 * @example
 * uuidV7(Date.UTC(2026, 0, 1)); // "019b7685-a800-7…" (a fresh random tail each call)
 */
export function uuidV7(unixMillis: number = Date.now()): string {
  const hex = uuidV7Hex(unixMillis);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * {@link uuidV7}'s 32 hex digits without the dashes (the server's request ids): made as they are, not by removing
 * the dashes afterwards, since every request makes one.
 *
 * @example
 * uuidV7Hex(Date.UTC(2026, 0, 1)); // "019b7685a8007…"
 */
export function uuidV7Hex(unixMillis: number = Date.now()): string {
  if (offset === pool.length) {
    globalThis.crypto.getRandomValues(pool);
    offset = 0;
  }
  const r = pool;
  const o = offset;
  offset += BYTES_PER_ID;
  const time = Math.max(0, Math.floor(unixMillis)).toString(16).padStart(12, '0').slice(-12);
  return (
    `${time}7${HEX[r[o]! & 0x0f]!.slice(1)}${HEX[r[o + 1]!]}` +
    `${HEX[(r[o + 2]! & 0x3f) | 0x80]}${HEX[r[o + 3]!]}` +
    `${HEX[r[o + 4]!]}${HEX[r[o + 5]!]}${HEX[r[o + 6]!]}${HEX[r[o + 7]!]}${HEX[r[o + 8]!]}${HEX[r[o + 9]!]}`
  );
}
