// JSON can carry text that no database stores faithfully: U+0000 (PostgreSQL's text type rejects it) and
// lone UTF-16 surrogates (not encodable as UTF-8; drivers fail or substitute U+FFFD). openapi.yaml promises
// text is stored exactly as sent and no input causes a 500, so such text is a 400 on every target alike.
const UNSTORABLE = /\u0000|\p{Cs}/u;

function propertyPath(path: readonly string[]): string {
  return path.join('.');
}

/**
 * The message for the first string in a (schema-valid) body that cannot be stored exactly, or undefined.
 *
 * @example
 * findUnstorableText({ first_name: 'A\u0000' }); // "first_name must not contain U+0000 or unpaired surrogates"
 */
export function findUnstorableText(value: unknown, path: readonly string[] = []): string | undefined {
  if (typeof value === 'string') {
    return UNSTORABLE.test(value)
      ? `${propertyPath(path)} must not contain U+0000 or unpaired surrogates`
      : undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      const found = findUnstorableText(inner, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}
