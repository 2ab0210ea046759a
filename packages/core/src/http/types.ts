import type { HeaderReader } from '../auth/read-api-key.js';

/** A request as any adapter (Fastify, MSW, a plain `Request`) can describe it. */
export interface ApiRequest {
  /** Upper- or lower-case HTTP method. */
  method: string;
  /** The URL path, without query string (percent-encoded as received). */
  path: string;
  /** The raw query string without `?` (operations that read query parameters get it); optional. */
  query?: string;
  header: HeaderReader;
  /** The raw body bytes; null or empty when the request had none. */
  body: Uint8Array | null;
  /** The client's address, where the host has one (a socket): failed authentications are counted by it. */
  clientAddress?: string | undefined;
}

/** What the adapter sends back. `body` is a JSON value, or undefined for an empty body (204). */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}
