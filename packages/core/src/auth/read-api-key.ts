/** Reads a request header by (case-insensitive) name; `Headers#get` satisfies it. */
export type HeaderReader = (name: string) => string | null | undefined;

/**
 * The API key a request carries: `X-API-Key` (recommended) or else `Authorization: Bearer <key>` (scheme
 * case-insensitive). Returns undefined when neither carries a value, which is the "key missing" 401;
 * a present value of the wrong shape is returned as is and fails later as "invalid".
 *
 * @example
 * readApiKey((name) => request.headers.get(name));
 */
export function readApiKey(header: HeaderReader): string | undefined {
  const direct = header('x-api-key')?.trim();
  if (direct) return direct;
  // Stryker disable next-line StringLiteral: any fallback text without "Bearer " matches nothing, like ''
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header('authorization') ?? '');
  return match?.[1];
}
