import fc from 'fast-check';
import { deref, loadOpenApi, type OpenApiDocument, type Schema } from '../spec/load-documents.js';

/** Text that has broken parsers, stores and templates before. */
export const NASTY_TEXT = [
  "'; DROP TABLE customers; --",
  "' OR '1'='1",
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '${7*7}{{7*7}}%s%n',
  '../../etc/passwd',
  'NULL',
  'null',
  'undefined',
  '0',
  '-1',
  'true',
  '\u202Eevil\u202C',
  'מרחב שמות', // RTL
  'e\u0301\u0301\u0301', // combining marks
  '😀👩‍👩‍👧‍👦🇩🇪', // astral, ZWJ sequences, flags
  '\uFEFF\u200B\u00A0 ',
  '\t\r\n',
  'A\u0000B', // NUL: unstorable, must be 400
  '\uD800', // lone high surrogate: unstorable
  'x\uDC00y', // lone low surrogate
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '\\u0000',
];

/** Characters for generated text: ASCII, Latin-1, CJK, RTL, combining, astral, and now and then unstorable. */
const character = fc.oneof(
  { weight: 120, arbitrary: fc.string({ minLength: 1, maxLength: 1 }) },
  { weight: 40, arbitrary: fc.constantFrom('é', 'ß', 'ø', '東', '京', 'ع', 'ש', '\u0301', '\u200F', '😀', '𝄞', '🇩🇪', '"', '\\', '/', "'", '<', '%') },
  { weight: 20, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  // Rare inside generated text, so that most bodies are storable; NASTY_TEXT and the mutations bring more.
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\uD800', '\uDFFF') },
);

const codePoints = (text: string) => [...text].length;

/** A string of at most `max` code points (the contract counts code points), biased to the boundaries. */
function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const upTo = (n: number) => fc.array(character, { minLength, maxLength: n }).map((parts) => parts.join(''));
  return fc
    .oneof(
      { weight: 5, arbitrary: upTo(Math.min(maxLength, 20)) },
      { weight: 1, arbitrary: upTo(maxLength) },
      { weight: 1, arbitrary: fc.constantFrom(...NASTY_TEXT) },
      { weight: 1, arbitrary: fc.constantFrom('x'.repeat(maxLength), '😀'.repeat(maxLength), 'é'.repeat(maxLength)) },
    )
    .filter((value) => codePoints(value) >= minLength && codePoints(value) <= maxLength);
}

const email = fc.oneof(
  { weight: 4, arbitrary: fc.emailAddress().filter((address) => address.length <= 254) },
  { weight: 1, arbitrary: fc.constantFrom('Ada@Example.com', 'ada@example.com', "o'brien+tag@example.co.uk", 'a@b.co') },
);

/**
 * An arbitrary of values valid by a schema of openapi.yaml (the subset the Customer schemas use: objects,
 * strings with lengths and formats, enums, nullable types, anyOf/allOf, $ref).
 */
export function validValue(doc: OpenApiDocument, node: Schema): fc.Arbitrary<unknown> {
  const schema = deref<Schema>(doc, node);
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as Schema[]).map((option) => validValue(doc, option)));
  if (schema.allOf) return validValue(doc, (schema.allOf as Schema[])[0]!);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const types = [schema.type].flat() as string[];
  if (types.length > 1) return fc.oneof(...types.map((type) => validValue(doc, { ...schema, type })));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'string':
      return schema.format === 'email' ? email : text(schema.minLength ?? 0, schema.maxLength ?? 300);
    case 'object': {
      const properties = schema.properties as Record<string, Schema>;
      const required = new Set<string>(schema.required ?? []);
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, validValue(doc, value)])),
        { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) as never[] },
      );
      return schema.minProperties ? record.filter((value) => Object.keys(value).length >= schema.minProperties) : record;
    }
    default:
      throw new Error(`no arbitrary for schema ${JSON.stringify(schema).slice(0, 80)}`);
  }
}

const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.constant({}),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);

const extraKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'seller_id', 'source', 'created_at', 'updated_at', 'toString', 'hasOwnProperty', '', ' first_name', 'FIRST_NAME', 'first_name\u0000'),
  fc.string({ minLength: 1, maxLength: 12 }),
);

export type Mutation =
  | { kind: 'none' }
  | { kind: 'drop'; key: string }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'wrong-type'; key: string; value: unknown }
  | { kind: 'too-long'; key: string; value: string }
  | { kind: 'huge'; key: string; value: string }
  | { kind: 'nasty'; key: string; value: string }
  | { kind: 'nested'; key: string; value: unknown }
  | { kind: 'not-an-object'; raw: string }
  | { kind: 'broken-json'; raw: string };

/** Mutations of a body of the given schema: valid ones stay likely, every kind of breakage is reachable. */
export function mutation(doc: OpenApiDocument, node: Schema): fc.Arbitrary<Mutation> {
  const schema = deref<Schema>(doc, node);
  const keys = Object.keys(schema.properties as object);
  const stringKeys = keys.filter((key) => maxLengthOf(doc, (schema.properties as Record<string, Schema>)[key]!) !== undefined);
  const key = fc.constantFrom(...keys);
  const stringKey = fc.constantFrom(...stringKeys);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant<Mutation>({ kind: 'none' }) },
    { weight: 1, arbitrary: key.map((k): Mutation => ({ kind: 'drop', key: k })) },
    { weight: 2, arbitrary: fc.tuple(extraKey, fc.oneof(fc.string({ maxLength: 8 }), wrongType)).map(([k, value]): Mutation => ({ kind: 'extra', key: k, value })) },
    { weight: 2, arbitrary: fc.tuple(key, wrongType).map(([k, value]): Mutation => ({ kind: 'wrong-type', key: k, value })) },
    {
      weight: 2,
      arbitrary: fc.tuple(stringKey, fc.constantFrom('x', '😀', 'é', 'e\u0301')).map(([k, unit]): Mutation => ({
        kind: 'too-long',
        key: k,
        value: unit.repeat(maxLengthOf(doc, (schema.properties as Record<string, Schema>)[k]!)! + 1),
      })),
    },
    { weight: 1, arbitrary: fc.tuple(stringKey, fc.integer({ min: 10_000, max: 80_000 })).map(([k, n]): Mutation => ({ kind: 'huge', key: k, value: 'ü'.repeat(n) })) },
    { weight: 2, arbitrary: fc.tuple(stringKey, fc.constantFrom(...NASTY_TEXT)).map(([k, value]): Mutation => ({ kind: 'nasty', key: k, value })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('address_data', 'postal_redirect_address'), fc.oneof(
          fc.record({ zip: fc.string() }),
          fc.record({ city: fc.constant('c'.repeat(101)) }),
          fc.record({ street: wrongType }),
          fc.constant('Hauptstraße 1'),
          fc.constant({ __proto__: { city: 'x' } }),
        ))
        .map(([k, value]): Mutation => ({ kind: 'nested', key: k, value })),
    },
    { weight: 1, arbitrary: fc.constantFrom('[]', '"text"', '42', 'null', 'true', '[{"first_name":"A"}]').map((raw): Mutation => ({ kind: 'not-an-object', raw })) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"first_name":', "{'a':1}", '{"a":1,}', '\u0000', '{"first_name":"A"}}').map((raw): Mutation => ({ kind: 'broken-json', raw })) },
  );
}

function maxLengthOf(doc: OpenApiDocument, node: Schema): number | undefined {
  const schema = deref<Schema>(doc, node);
  if (schema.maxLength !== undefined) return schema.maxLength;
  for (const option of [...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) {
    const found = maxLengthOf(doc, option);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The request body text: the valid body with the mutation applied (own `__proto__` keys kept as JSON keys). */
export function applyMutation(body: Record<string, unknown>, change: Mutation): string {
  if (change.kind === 'not-an-object' || change.kind === 'broken-json') return change.raw;
  const copy: Record<string, unknown> = { ...body };
  if (change.kind === 'drop') {
    delete copy[change.key];
    return JSON.stringify(copy);
  }
  if (change.kind === 'none') return JSON.stringify(copy);
  if (change.kind === 'extra' && change.key in copy) delete copy[change.key];
  const json = JSON.stringify(copy);
  // Written as text so that `__proto__` and `constructor` reach the server as ordinary JSON keys.
  const member = `${JSON.stringify(change.key)}:${JSON.stringify(change.value) ?? 'null'}`;
  if (change.kind !== 'extra') delete copy[change.key];
  const rest = change.kind === 'extra' ? json : JSON.stringify(copy);
  return rest === '{}' ? `{${member}}` : `{${member},${rest.slice(1)}`;
}

export const openapi = loadOpenApi();
export const schemaOf = (name: string): Schema => (openapi.components.schemas as Record<string, Schema>)[name]!;
