/** @internal One API request as a resource describes it; the request loop sends it (once per attempt). */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path under the base URL, path parameters already percent-encoded. */
  path: string;
  /** Query parameters; `undefined` ones are left out. */
  query?: Record<string, string | number | undefined> | undefined;
  /** Sent as JSON. */
  body?: unknown;
  /** The operation's own headers (`Idempotency-Key`); they win over every other. */
  headers?: Record<string, string> | undefined;
}

/** The request's URL: base URL, path, then the defined query parameters, each name and value percent-encoded. */
export function urlOf(baseUrl: string, { path, query = {} }: ApiRequest): string {
  const search = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value!)}`)
    .join('&');
  return `${baseUrl}${path}${search && `?${search}`}`;
}

/**
 * A response's body: `undefined` when empty (204), parsed JSON, or for an error response text that is not JSON
 * (a proxy's page). A 2xx body that is not JSON rejects with the `SyntaxError`.
 */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : undefined;
  } catch (error) {
    if (response.ok) throw error;
    return text;
  }
}
