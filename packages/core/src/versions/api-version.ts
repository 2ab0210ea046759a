import type { HeaderReader } from '../auth/read-api-key.js';
import type { ApiError } from '../errors/api-error.js';
import { errors } from '../errors/registry.js';
import { API_VERSIONS as GENERATED } from '../generated/api-versions.js';

/** One dated version of the API, as openapi.yaml's `x-api-versions` lists it. */
export interface ApiVersion {
  /** `YYYY-MM-DD`: the day the version was released. */
  version: string;
  summary: string;
  /** From this day on the version is deprecated (still answered). */
  deprecated?: string;
  /** From this day on (UTC) the version is refused with 400. */
  sunset?: string;
}

/** The API's versions, newest first (generated from openapi.yaml). */
export const API_VERSIONS: readonly ApiVersion[] = GENERATED;

/** The version a request gets without `Customers-Version`. */
export const LATEST_API_VERSION: string = GENERATED[0].version;

/** The request and response header that names the API version. */
export const API_VERSION_HEADER = 'Customers-Version';

/** The outcome of reading `Customers-Version`: the version to answer in, and the 400 when the header is not acceptable. */
export interface ApiVersionResolution {
  /** The version the response carries: the requested one when valid, else the latest. */
  version: string;
  /** Set when the header was sent but is malformed, unknown or past its sunset. */
  error?: ApiError;
}

/**
 * Reads a request's `Customers-Version`: absent → the latest; one of the versions not past its sunset → that one;
 * anything else → the latest, with the 400 that names the header and lists the supported versions. A sunset takes
 * effect at the start of its day (UTC) by `now`, which is only read when a version has a sunset.
 *
 * @example
 * resolveApiVersion((name) => request.headers.get(name)); // { version: '2026-11-26' }
 */
export function resolveApiVersion(
  header: HeaderReader,
  now: () => Date = () => new Date(),
  versions: readonly ApiVersion[] = API_VERSIONS,
): ApiVersionResolution {
  const latest = versions[0]?.version ?? LATEST_API_VERSION;
  const sent = header('customers-version');
  if (sent === undefined || sent === null) return { version: latest };
  // The latest asked for by name: one comparison, no list walk (the latest has no sunset while it is the latest).
  if (sent === latest && versions[0]?.sunset === undefined) return { version: latest };
  // Stryker disable next-line StringLiteral: with no sunset listed, `today` is never compared
  const today = versions.some((entry) => entry.sunset !== undefined) ? utcDate(now()) : '';
  const supported = versions.filter((entry) => entry.sunset === undefined || today < entry.sunset);
  if (supported.some((entry) => entry.version === sent)) return { version: sent };
  return {
    version: latest,
    error: errors.badRequest(
      `${API_VERSION_HEADER} header must be one of: ${supported.map((entry) => entry.version).join(', ')}`,
    ),
  };
}

/**
 * The `Customers-Version` header of an answer given outside the operation table (a mock's forced or example
 * answer, a host's own error): the requested version when valid, else the latest.
 *
 * @example
 * apiVersionHeaders(header); // { 'Customers-Version': '2026-11-26' }
 */
export function apiVersionHeaders(header: HeaderReader, now?: () => Date): Record<string, string> {
  return { [API_VERSION_HEADER]: resolveApiVersion(header, now).version };
}

/**
 * The versions a seller or a webhook endpoint may be pinned to today: those not past their sunset, newest first.
 *
 * @example
 * openApiVersions(); // ['2026-11-26']
 */
export function openApiVersions(now: () => Date = () => new Date(), versions: readonly ApiVersion[] = API_VERSIONS): string[] {
  // Stryker disable next-line StringLiteral: with no sunset listed, `today` is never compared
  const today = versions.some((entry) => entry.sunset !== undefined) ? utcDate(now()) : '';
  return versions.filter((entry) => entry.sunset === undefined || today < entry.sunset).map((entry) => entry.version);
}

/**
 * A date's UTC calendar day, `YYYY-MM-DD`, as sunsets are compared.
 *
 * @example
 * utcDate(new Date('2026-11-26T23:30:00-02:00')); // '2026-11-27'
 */
export function utcDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
