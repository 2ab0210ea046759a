/**
 * The rate limit a response announced, read from its `RateLimit` and `RateLimit-Policy` fields
 * (IETF draft-ietf-httpapi-ratelimit-headers), e.g. `RateLimit: "seller";r=42;t=1` with
 * `RateLimit-Policy: "seller";q=100;w=1`.
 */
export interface RateLimitState {
  /** The policy's name: `seller` for a seller's budget, `unauthenticated` for failed authentications. */
  policy: string;
  /** Requests left in the current window. */
  remaining: number;
  /** Seconds until the budget is full again; `undefined` when the server did not say. */
  resetSeconds: number | undefined;
  /** Requests per window (the policy's `q`); `undefined` without a matching `RateLimit-Policy`. */
  limit: number | undefined;
}

interface Item {
  name: string;
  params: Record<string, number>;
}

/** One `"name";key=value;…` member of a structured-field list; undefined when it does not parse. */
function parseItem(member: string): Item | undefined {
  const [name, ...pairs] = member.trim().split(';');
  // Stryker disable next-line StringLiteral: split() always yields a first element, so name is never undefined and the fallback is never read
  const quoted = /^"([^"]*)"$/.exec(name ?? '');
  if (!quoted) return undefined;
  const params: Record<string, number> = {};
  for (const pair of pairs) {
    const [key, value] = pair.split('=');
    if (key && value && /^\d+$/.test(value.trim())) params[key.trim()] = Number(value);
  }
  return { name: quoted[1]!, params };
}

/**
 * The first policy of a response's `RateLimit` field, with its quota from `RateLimit-Policy`; `undefined` when
 * the response carries none (the server does not limit) or it does not parse.
 *
 * @example
 * rateLimitOf(response.headers); // { policy: 'seller', remaining: 42, resetSeconds: 1, limit: 100 }
 */
export function rateLimitOf(headers: Headers): RateLimitState | undefined {
  const current = parseItem(headers.get('ratelimit')?.split(',')[0] ?? '');
  const remaining = current?.params.r;
  if (!current || remaining === undefined) return undefined;
  const policy = (headers.get('ratelimit-policy') ?? '').split(',').map(parseItem).find((p) => p?.name === current.name);
  return { policy: current.name, remaining, resetSeconds: current.params.t, limit: policy?.params.q };
}
