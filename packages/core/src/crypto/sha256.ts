/**
 * SHA-256 of UTF-8 text as lowercase hex, through Web Crypto (`globalThis.crypto`), which Node 20 and
 * every browser provide; core stays free of `node:crypto`.
 *
 * @example
 * await sha256Hex('abc'); // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
