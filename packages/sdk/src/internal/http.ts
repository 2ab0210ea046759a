import { serializePrimitiveParam } from 'openapi-fetch';
import type { ParamsOption, RequestBodyOption } from 'openapi-fetch';
import type { paths } from '../generated/openapi';

type Method = 'get' | 'post' | 'patch' | 'delete';

/**
 * @internal One API request as a resource describes it, typed by the contract's `paths` the way openapi-fetch types
 * its calls: an OpenAPI path template with the method it has, its `params` (`path`, `query`, `header`) and `body`.
 * A template the contract lacks, a missing path parameter or a wrong body does not compile. The request loop sends
 * it once per attempt.
 */
export type ApiRequest = {
  [M in Method]: {
    [P in keyof paths]: paths[P][M] extends object
      ? { method: Uppercase<M>; path: P } & ParamsOption<paths[P][M]> & RequestBodyOption<paths[P][M]>
      : never;
  }[keyof paths];
}[Method];

/** What the request loop reads of any {@link ApiRequest}. */
interface Parts {
  method: Uppercase<Method>;
  path: string;
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown>; header?: Record<string, string> };
  body?: unknown;
}

/**
 * The query string as openapi-fetch's default serializer writes it (`createQuerySerializer()`): each defined
 * parameter as `name=value`, the value percent-encoded (`serializePrimitiveParam`), `undefined` and `null` left out.
 * Every query parameter of the contract is a primitive (a type test says so, and `serializePrimitiveParam` throws
 * on an array or object), so openapi-fetch's array and object serializers stay out of the bundle.
 */
function querySerializer(query: Record<string, unknown>): string {
  const pairs: string[] = [];
  for (const name in query) {
    const value = query[name];
    if (value != null) pairs.push(serializePrimitiveParam(name, value as string));
  }
  return pairs.join('&');
}

/**
 * The request's URL: base URL and path template, each `{name}` replaced by its path parameter percent-encoded (as
 * openapi-fetch's default `simple` style does; the contract's paths have no other style), then the defined query
 * parameters serialized by openapi-fetch (`createQuerySerializer`). Also the request's method, the operation's own
 * headers (`params.header`: `Idempotency-Key`) and its body.
 */
export function partsOf(baseUrl: string, request: ApiRequest) {
  const { method, path, params = {}, body } = request as Parts;
  // A string replace per parameter: openapi-fetch's path serializer (a regex over the whole URL, then one replace
  // per match) cost about 4-5 µs of every call's latency, a third of what the SDK added to a GET (issue 28).
  let url = baseUrl + path;
  for (const name in params.path) {
    const value = params.path[name];
    if (value != null) url = url.replace(`{${name}}`, encodeURIComponent(value as string));
  }
  const search = params.query && querySerializer(params.query);
  return { method, url: search ? `${url}?${search}` : url, headers: params.header, body };
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
