import { OPERATIONS } from '@customers-api/core';

/** The API's top-level collections (`customers`, `webhook_endpoints`, `events`), from core's operation table. */
const COLLECTIONS = [...new Set(OPERATIONS.map((operation) => operation.path.split('/')[2]!))].join('|');

/** The one handler path for a base URL, and the path prefix to strip before routing. */
export interface MountPoint {
  /**
   * Each collection of the API (`/api/customers`, `/api/webhook_endpoints`, `/api/events`) and everything below
   * it, `/api/customers/` included (core answers it 404 like any path no operation has, as the server and the
   * HTTP mock do), in one RegExp (one handler, so MSW matches once per request).
   * A RegExp without capture groups, not a `/*` string: MSW decodes the segments a string pattern captures
   * with decodeURIComponent, which throws on broken percent-encoding (`/api/customers/%E0%A4%A`) before any
   * handler runs.
   */
  pattern: RegExp;
  basePath: string;
}

/**
 * Where the handlers listen. `'*'` (the default) matches the API on any origin, and relative URLs in a
 * browser; a full URL such as `https://api.example.com/v1` matches only there.
 *
 * @example
 * mountPoint('http://127.0.0.1:3000').pattern; // /^http:\/\/127\.0\.0\.1:3000\/api\/(?:customers|webhook_endpoints|events)(?:\/.*)?$/
 */
export function mountPoint(baseUrl: string): MountPoint {
  const base = baseUrl.replace(/\/+$/, '');
  const basePath = base === '*' || base === '' ? '' : new URL(base).pathname.replace(/\/+$/, '');
  const origin = base === '*' || base === '' ? '.*' : base.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return { pattern: new RegExp(`^${origin}\\/api\\/(?:${COLLECTIONS})(?:\\/.*)?$`), basePath };
}

