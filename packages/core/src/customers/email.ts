/**
 * The form in which emails are compared for uniqueness. openapi.yaml makes uniqueness case-insensitive;
 * the address itself is stored and returned as sent. The `email` format only admits ASCII, so lower-casing
 * is the whole rule (no Unicode case folding question arises).
 *
 * @example
 * emailKey('Ada@Example.com') === emailKey('ada@example.com'); // true
 */
export function emailKey(email: string): string {
  return email.toLowerCase();
}
