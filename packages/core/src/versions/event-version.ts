import type { CustomerEvent } from '../types.js';
import { API_VERSION_HEADER, resolveApiVersion } from './api-version.js';
import { API_VERSIONING, downgradeEvent, type ApiVersioning } from './version-change.js';

/** An event as one webhook endpoint receives it: the body in the endpoint's version and the header naming it. */
export interface VersionedEvent {
  /** The version the event is written in (its `api_version`). */
  version: string;
  /** The event of the latest version translated down to `version`, with `api_version` set to it. */
  body: Record<string, unknown>;
  /** `Customers-Version: <version>`, sent with the delivery beside the `webhook-*` headers. */
  headers: Readonly<Record<string, string>>;
}

export interface EventVersionOptions {
  /** The versions and changes (tests: a fixture version); openapi.yaml's when omitted. */
  versioning?: ApiVersioning;
  /** Today, for sunsets; only read when a version has one. */
  now?: () => Date;
}

const latestHeaders = new WeakMap<ApiVersioning, Readonly<Record<string, string>>>();

/**
 * An event rendered in the version a webhook endpoint is pinned to: the latest event passed down core's chain of
 * version changes (each change's `event`), with `api_version` and a `Customers-Version` header naming the
 * version. No pin, an unknown one or one past its sunset gets the latest, as a seller's pin does. The server's
 * delivery worker and the HTTP mock's webhooks both send what this returns; the event given is never changed.
 *
 * @example
 * const { body, headers } = eventInVersion(customerEvent(change), endpoint.apiVersion);
 * await post(url, JSON.stringify(body), { ...signed, ...headers });
 */
export function eventInVersion(
  event: CustomerEvent,
  version: string | null | undefined,
  { versioning = API_VERSIONING, now }: EventVersionOptions = {},
): VersionedEvent {
  const changes =
    // Stryker disable next-line LogicalOperator: a short cut; resolveApiVersion and changesFor give the latest for these pins too
    version === undefined || version === null || version === versioning.latest
      ? undefined
      : resolveApiVersion(() => version, now, versioning.versions).error
        ? undefined
        : versioning.changesFor(version);
  if (changes === undefined) {
    // The latest (one comparison, nothing copied unless the event names another version).
    const latest = versioning.latest;
    let headers = latestHeaders.get(versioning);
    if (!headers) latestHeaders.set(versioning, (headers = Object.freeze({ [API_VERSION_HEADER]: latest })));
    const body = event.api_version === latest ? event : { ...event, api_version: latest };
    return { version: latest, body: body as Record<string, unknown>, headers };
  }
  const old = version as string;
  const body = { ...downgradeEvent(changes, event as Record<string, unknown>), api_version: old };
  return { version: old, body, headers: { [API_VERSION_HEADER]: old } };
}
