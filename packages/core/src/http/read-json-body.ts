import { errors } from '../errors/registry.js';
import type { HeaderReader } from '../auth/read-api-key.js';

/** openapi.yaml: request bodies are limited to 64 KiB. */
export const BODY_LIMIT_BYTES = 65_536;

/**
 * Whether a `Content-Type` is `application/json`, in any letter case, with or without parameters such as
 * `charset`. Other JSON-ish types (`application/merge-patch+json`, `text/json`) are not: the contract
 * names exactly one media type.
 *
 * @example
 * isJsonContentType('application/json; charset=utf-8'); // true
 */
export function isJsonContentType(contentType: string | null | undefined): boolean {
  // Stryker disable next-line StringLiteral,OptionalChaining: a fallback that is not application/json answers false like ''; split() always returns an element
  const mediaType = (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}

/**
 * The parsed JSON object of a request body, checked in the order the conventions list: a non-empty body
 * needs `application/json` (415), at most `limitBytes` bytes (413), valid UTF-8 JSON (400) whose top
 * level is an object (400). Schema validation follows separately.
 *
 * @example
 * const body = readJsonBody((name) => headers.get(name), bytes); // throws ApiError 413/415/400
 */
export function readJsonBody(
  header: HeaderReader,
  bytes: Uint8Array | null,
  limitBytes: number = BODY_LIMIT_BYTES,
): Record<string, unknown> {
  if (!bytes || bytes.byteLength === 0) throw errors.badRequest('body must be a JSON object');
  if (!isJsonContentType(header('content-type'))) throw errors.unsupportedMediaType();
  if (bytes.byteLength > limitBytes) throw errors.payloadTooLarge(limitBytes);

  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw errors.badRequest('body must be valid JSON (UTF-8)');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw errors.badRequest('body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
