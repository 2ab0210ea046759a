import type { OperationId } from '../http/operations.js';
import type { HeaderReader } from '../auth/read-api-key.js';
import type { SellerContext } from '../types.js';
import { API_VERSIONS, resolveApiVersion, type ApiVersion } from './api-version.js';
import { VERSION_CHANGES } from './changes.js';

/**
 * One change between two adjacent versions, written once: it turns a request of the version before into one of
 * `version`, and answers and events of `version` back into the version before. The service and the stores only
 * know the latest version; the hosts apply the chain of changes between a caller's version and the latest.
 */
export interface VersionChange {
  /** The version that introduced the change: callers of any earlier version get its translations. */
  version: string;
  /** One line for the API changelog. */
  description: string;
  /** Rewrites a request's JSON body of the version before into this version's. */
  request?(body: Record<string, unknown>, operation: OperationId): Record<string, unknown>;
  /** Rewrites a success body of this version into the version before's. */
  response?(body: unknown, operation: OperationId): unknown;
  /** Rewrites an operation's error message of this version into the version before's. */
  errorMessage?(message: string, operation: OperationId): string;
  /** Rewrites an event (a webhook delivery's body) of this version into the version before's. */
  event?(event: Record<string, unknown>): Record<string, unknown>;
}

/** The versions a host answers and the changes between them. */
export interface ApiVersioning {
  /** Newest first, the first being the latest. */
  readonly versions: readonly ApiVersion[];
  readonly latest: string;
  /**
   * The changes a caller of `version` needs, oldest first (requests go up through them; answers come back down
   * in reverse); undefined for the latest or an unknown version, so the latest pays one comparison.
   */
  changesFor(version: string): readonly VersionChange[] | undefined;
  /**
   * The `Deprecation`, `Sunset` and `Link` headers of an answer in `version` once it is deprecated (or has a
   * sunset day); undefined for the latest and for a version that is neither.
   */
  headersFor(version: string): Readonly<Record<string, string>> | undefined;
}

/** Where the API's changelog lives: deprecated versions' `Link: <…>; rel="deprecation"` points at its section. */
export const API_CHANGELOG_URL = 'https://github.com/customers-api/customers-api-toolkit/blob/main/docs/api-changelog.md';

/**
 * The headers of an answer in a deprecated version: `Deprecation: @<epoch seconds>` (RFC 9745) from its
 * deprecation day, `Sunset: <HTTP-date>` (RFC 8594) once a sunset day is set, and `Link` to the changelog's section
 * of the version with `rel="deprecation"`; undefined when the version is neither deprecated nor sunset.
 *
 * @example
 * deprecationHeaders({ version: '2026-11-26', summary: '', deprecated: '2027-03-01' });
 * // { Deprecation: '@1803859200', Link: '<https://…/api-changelog.md#2026-11-26>; rel="deprecation"' }
 */
export function deprecationHeaders(entry: ApiVersion): Record<string, string> | undefined {
  if (entry.deprecated === undefined && entry.sunset === undefined) return undefined;
  const day = (date: string) => new Date(`${date}T00:00:00Z`);
  return {
    ...(entry.deprecated !== undefined && { Deprecation: `@${day(entry.deprecated).getTime() / 1000}` }),
    ...(entry.sunset !== undefined && { Sunset: day(entry.sunset).toUTCString() }),
    Link: `<${API_CHANGELOG_URL}#${entry.version}>; rel="deprecation"`,
  };
}

/**
 * The versioning of a host: openapi.yaml's versions and core's changes by default; tests pass a list of their
 * own (a fixture version) to any host (`createApiHandler`, `createMockApi`, the server's `buildApp`).
 * Throws when a change names a version that is not in the list or is the oldest (nothing is before it).
 *
 * @example
 * const versioning = createApiVersioning(); // the API's own versions and changes
 */
export function createApiVersioning(
  versions: readonly ApiVersion[] = API_VERSIONS,
  changes: readonly VersionChange[] = VERSION_CHANGES,
): ApiVersioning {
  const latest = versions[0]?.version;
  if (latest === undefined) throw new Error('an API needs at least one version');
  const oldest = versions[versions.length - 1]!.version;
  for (const change of changes) {
    if (!versions.some((entry) => entry.version === change.version) || change.version === oldest)
      throw new Error(`version change "${change.description}" names ${change.version}, which follows no listed version`);
  }
  const chains = new Map<string, readonly VersionChange[]>();
  // Stryker disable next-line MethodExpression: a chain for the latest would never be read (changesFor answers undefined for it first)
  for (const { version } of versions.slice(1)) {
    const chain = changes.filter((change) => change.version > version).sort((a, b) => a.version.localeCompare(b.version));
    if (chain.length > 0) chains.set(version, Object.freeze(chain));
  }
  const deprecations = new Map<string, Readonly<Record<string, string>>>();
  for (const entry of versions) {
    const headers = deprecationHeaders(entry);
    if (headers) deprecations.set(entry.version, Object.freeze(headers));
  }
  return {
    versions,
    latest,
    changesFor: (version) => (version === latest ? undefined : chains.get(version)),
    headersFor: (version) => (version === latest ? undefined : deprecations.get(version)),
  };
}

/** The API's own versioning (openapi.yaml's versions, core's changes). */
export const API_VERSIONING: ApiVersioning = createApiVersioning();

/**
 * A request body of the caller's version rewritten into the latest (changes oldest first).
 *
 * @example
 * upgradeRequest(changes, { company: 'Acme' }, 'createCustomer'); // { company_name: 'Acme' }
 */
export function upgradeRequest(
  changes: readonly VersionChange[],
  body: Record<string, unknown>,
  operation: OperationId,
): Record<string, unknown> {
  let current = body;
  for (const change of changes) if (change.request) current = change.request(current, operation);
  return current;
}

/**
 * A success body of the latest version rewritten into the caller's (changes newest first).
 *
 * @example
 * downgradeResponse(changes, customer, 'getCustomer');
 */
export function downgradeResponse(changes: readonly VersionChange[], body: unknown, operation: OperationId): unknown {
  let current = body;
  for (let index = changes.length - 1; index >= 0; index -= 1) {
    const change = changes[index]!;
    if (change.response && current !== undefined) current = change.response(current, operation);
  }
  return current;
}

/**
 * An error message of the latest version rewritten into the caller's.
 *
 * @example
 * downgradeErrorMessage(changes, 'company_name must be a string', 'createCustomer');
 */
export function downgradeErrorMessage(changes: readonly VersionChange[], message: string, operation: OperationId): string {
  let current = message;
  for (let index = changes.length - 1; index >= 0; index -= 1) {
    const change = changes[index]!;
    if (change.errorMessage) current = change.errorMessage(current, operation);
  }
  return current;
}

/**
 * An event of the latest version rewritten into the caller's (a webhook endpoint's pinned version).
 *
 * @example
 * downgradeEvent(changes, event);
 */
export function downgradeEvent(changes: readonly VersionChange[], event: Record<string, unknown>): Record<string, unknown> {
  let current = event;
  for (let index = changes.length - 1; index >= 0; index -= 1) {
    const change = changes[index]!;
    if (change.event) current = change.event(current);
  }
  return current;
}

/**
 * The version a request is answered in when it names none and its seller is pinned to an earlier one (decided
 * after authentication, since the header is checked before the key); undefined when the header was sent, the
 * seller is pinned to the latest (one comparison) or to nothing, or the pinned version is past its sunset (the
 * latest applies then).
 *
 * @example
 * pinnedVersion(versioning, header, seller); // '2026-06-01' for a seller pinned there, without the header
 */
export function pinnedVersion(
  versioning: ApiVersioning,
  header: HeaderReader,
  seller: SellerContext,
  now?: () => Date,
): string | undefined {
  const pinned = seller.apiVersion;
  if (pinned === undefined || pinned === null || pinned === versioning.latest) return undefined;
  const sent = header('customers-version');
  if (sent !== undefined && sent !== null) return undefined;
  return resolveApiVersion(() => pinned, now, versioning.versions).error ? undefined : pinned;
}
