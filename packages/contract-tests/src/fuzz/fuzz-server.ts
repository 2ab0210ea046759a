import { randomUUID } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { send, type RawOptions } from '../support/http.js';
import type { ServerTarget } from '../targets/server-target.js';
import type { TargetSeller } from '../targets/target.js';
import { applyMutation, mutation, openapi, schemaOf, validValue, type Mutation } from './arbitraries.js';

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
ajv.addSchema({ ...(openapi as object), $id: 'openapi.json' });
const schemaAccepts = (name: string) => ajv.getSchema(`openapi.json#/components/schemas/${name}`)!;
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type KeyChoice = 'good' | 'bearer' | 'missing' | 'malformed' | 'wrong-prefix' | 'unknown' | 'revoked' | 'padded' | 'other-seller';
const badKeys: KeyChoice[] = ['missing', 'malformed', 'wrong-prefix', 'unknown', 'revoked', 'padded'];
const keyChoice = (withOtherSeller: boolean) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant<KeyChoice>('good') },
    { weight: 3, arbitrary: fc.constant<KeyChoice>('bearer') },
    { weight: 3, arbitrary: fc.constantFrom<KeyChoice>(...badKeys, ...(withOtherSeller ? (['other-seller'] as const) : [])) },
  );

type IdChoice = { kind: 'known'; index: number } | { kind: 'unknown' } | { kind: 'bad'; id: string };
const idChoice: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 5, arbitrary: fc.nat(2).map((index): IdChoice => ({ kind: 'known', index })) },
  { weight: 1, arbitrary: fc.constant<IdChoice>({ kind: 'unknown' }) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.constantFrom('not-a-uuid', "1' OR '1'='1", '__proto__', 'constructor', '%00', '.x.', 'null', '0', '-1', 'x'.repeat(10_000), '😀', '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e6g'),
        fc.string({ minLength: 1, maxLength: 40 }),
      )
      // Ids over 4,096 characters hit a server bug (400 before the key check) pinned by its own test in
      // contract/server-sqlite.test.ts; kept out of here so that the fuzzer keeps finding anything else.
      // `.` and `..` are resolved away by the URL parser before any request is sent.
      .filter((id) => !/^\.{1,2}$/.test(id))
      .map((id): IdChoice => ({ kind: 'bad', id })),
  },
);

export interface FuzzStats {
  requests: number;
  byStatus: Record<string, number>;
}

/**
 * Generated and mutated requests against the server, each checked for: no 5xx, a status documented for the
 * operation, a valid response (conformance log), `{error, message}` errors, unchanged seller state after a
 * rejection, accepted text stored and returned exactly, refused bad keys, and valid input accepted.
 */
export async function fuzzServer(server: ServerTarget, runs: number): Promise<FuzzStats> {
  const stats: FuzzStats = { requests: 0, byStatus: {} };
  const seller = await server.newSeller({ customerLimit: 1_000_000 });
  const other = await server.newSeller();
  const revoked = await server.newKey(seller.sellerId);
  await server.revokeKey(revoked);
  const known: string[] = [];
  const addKnown = async (index: number) => {
    const response = await send(server, 'POST', '/api/customers', { key: seller.key, body: { first_name: 'Known', last_name: `No ${index}`, email: `known.${randomUUID()}@example.com` } });
    if (response.status !== 201) throw new Error(`could not create a known customer: ${response.text}`);
    known[index] = response.json.id;
  };
  for (const index of [0, 1, 2]) await addKnown(index);

  const snapshot = async () => {
    const rows = await server.handle.db.selectFrom('customers').selectAll().where('seller_id', '=', seller.sellerId).orderBy('id').execute();
    const total = await server.handle.db.selectFrom('customers').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    return JSON.stringify({ rows, total: Number(total.n) });
  };

  const keyOptions = (choice: KeyChoice, owner: TargetSeller): Pick<RawOptions, 'key' | 'bearer'> => {
    switch (choice) {
      case 'good': return { key: owner.key };
      case 'bearer': return { key: owner.key, bearer: true };
      case 'missing': return {};
      case 'malformed': return { key: owner.key.slice(0, 20) };
      case 'wrong-prefix': return { key: owner.key.replace('sk_live_', 'pk_live_') };
      case 'unknown': return { key: `sk_live_${'Q'.repeat(48)}` };
      case 'revoked': return { key: revoked.key };
      case 'padded': return { key: `${owner.key}x` };
      case 'other-seller': return { key: other.key };
    }
  };
  const pathFor = (id: IdChoice) =>
    `/api/customers/${id.kind === 'known' ? known[id.index] : id.kind === 'unknown' ? randomUUID() : encodeURIComponent(id.id)}`;

  /** One request and every property; returns the parsed response. */
  const check = async (
    operation: 'create' | 'update' | 'get' | 'delete' | 'list',
    method: string,
    path: string,
    key: KeyChoice,
    bodyText: string | undefined,
    id: IdChoice | undefined,
  ) => {
    const before = await snapshot();
    const violationsBefore = server.log.violations.length;
    const response = await send(server, method, path, { ...keyOptions(key, seller), ...(bodyText === undefined ? {} : { raw: bodyText }) });
    stats.requests += 1;
    stats.byStatus[response.status] = (stats.byStatus[response.status] ?? 0) + 1;
    const where = `${method} ${path.slice(0, 80)} key=${key} body=${bodyText?.slice(0, 200)} → ${response.status} ${response.text.slice(0, 200)}`;
    const fail = (why: string) => {
      throw new Error(`${why}: ${where}`);
    };
    if (response.status >= 500) fail('5xx');
    const newViolations = server.log.violations.slice(violationsBefore);
    if (newViolations.length > 0) fail(`not as documented (${newViolations.join('; ')})`);
    if (badKeys.includes(key) && response.status !== 401) fail('a bad key was not refused with 401');
    if (response.status >= 400) {
      if (!isDeepStrictEqual(Object.keys(response.json ?? {}).sort(), ['error', 'message'])) fail('error body is not exactly {error, message}');
      if ((await snapshot()) !== before) fail('a rejected request changed the stored customers');
      if (key === 'good' || key === 'bearer') {
        const parsed = parse(bodyText);
        const schema = operation === 'create' ? 'CustomerCreate' : 'CustomerUpdate';
        const validInput = parsed.ok && schemaAccepts(schema)(parsed.value) && !unstorable(parsed.value) && Buffer.byteLength(bodyText ?? '') <= 65_536;
        const missing = id?.kind === 'unknown' || id?.kind === 'bad';
        if (operation === 'create' && validInput && response.status !== 409) fail('a valid create was refused');
        if (operation === 'update' && validInput && !missing && response.status !== 409) fail('a valid update was refused');
      }
      return response;
    }
    if (key === 'other-seller' && operation !== 'list') fail("another seller's key reached a customer");
    if (operation === 'list') {
      const query = new URLSearchParams(path.split('?')[1] ?? '');
      const owner = key === 'other-seller' ? undefined : seller.sellerId;
      for (const customer of response.json.data as Array<Record<string, string>>) {
        if (customer.seller_id !== owner) fail("a list returned another seller's customer");
        const status = query.get('status');
        if (status && customer.status !== status) fail('a list ignored the status filter');
        const email = query.get('email');
        if (email && customer.email!.toLowerCase() !== email.toLowerCase()) fail('a list ignored the email filter');
        const after = query.get('created_after');
        if (after && Date.parse(customer.created_at!) < Date.parse(after)) fail('a list ignored created_after');
        const before = query.get('created_before');
        if (before && Date.parse(customer.created_at!) >= Date.parse(before)) fail('a list ignored created_before');
      }
      if (response.json.data.length > Number(query.get('limit') ?? 20)) fail('a list page is larger than its limit');
    }
    if (operation === 'create' || operation === 'update') {
      const parsed = parse(bodyText);
      if (!parsed.ok || !schemaAccepts(operation === 'create' ? 'CustomerCreate' : 'CustomerUpdate')(parsed.value)) fail('accepted a body the schema rejects');
      for (const [name, value] of Object.entries((parsed as { value: object }).value)) {
        if (!isDeepStrictEqual(response.json[name], value)) fail(`${name} was not returned exactly as sent`);
      }
      const row = await server.handle.db.selectFrom('customers').selectAll().where('id', '=', response.json.id).executeTakeFirst();
      for (const column of ['first_name', 'last_name', 'email', 'company_name', 'legal_entity'] as const) {
        if (row?.[column] !== response.json[column]) fail(`${column} is not stored exactly as answered`);
      }
      const read = await send(server, 'GET', `/api/customers/${response.json.id}`, { key: seller.key });
      if (!isDeepStrictEqual(read.json, response.json)) fail('the stored customer differs from the answer');
      if (operation === 'create') await send(server, 'DELETE', `/api/customers/${response.json.id}`, { key: seller.key });
    }
    if (operation === 'delete' && id?.kind === 'known') await addKnown(id.index);
    return response;
  };

  const createBody = validValue(openapi, schemaOf('CustomerCreate')) as fc.Arbitrary<Record<string, unknown>>;
  const updateBody = validValue(openapi, schemaOf('CustomerUpdate')) as fc.Arbitrary<Record<string, unknown>>;
  const createMutation = mutation(openapi, schemaOf('CustomerCreate'));
  const updateMutation = mutation(openapi, schemaOf('CustomerUpdate'));

  const createRuns = Math.ceil(runs * 0.45);
  const updateRuns = Math.ceil(runs * 0.35);
  const readRuns = Math.max(0, Math.ceil((runs - createRuns - updateRuns) / 2));
  const listRuns = Math.max(0, runs - createRuns - updateRuns - readRuns);
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
  const params = (numRuns: number) => ({ numRuns, seed, endOnFailure: true });

  await fc.assert(
    fc.asyncProperty(createBody, createMutation, keyChoice(false), async (body, change: Mutation, key) => {
      await check('create', 'POST', '/api/customers', key, applyMutation(body, change), undefined);
    }),
    params(createRuns),
  );
  await fc.assert(
    fc.asyncProperty(updateBody, updateMutation, keyChoice(true), idChoice, async (body, change: Mutation, key, id) => {
      await check('update', 'PATCH', pathFor(id), key, applyMutation(body, change), id);
    }),
    params(updateRuns),
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('GET', 'DELETE'), keyChoice(true), idChoice, async (method, key, id) => {
      await check(method === 'GET' ? 'get' : 'delete', method, pathFor(id), key, undefined, id);
    }),
    params(readRuns),
  );
  await fc.assert(
    fc.asyncProperty(listQuery, keyChoice(true), async (query, key) => {
      const response = await check('list', 'GET', `/api/customers?${query}`, key, undefined, undefined);
      // A query every parameter of which is valid by openapi.yaml (no cursor) must be answered.
      if (response.status === 400 && key !== 'other-seller' && !badKeys.includes(key) && listQueryIsValid(query)) {
        throw new Error(`a valid list query was refused: ${query} → ${response.text}`);
      }
      // And one that breaks a rule (a limit not in plain digits, an instant out of range, U+0000…) must be refused.
      if (response.status === 200 && !listQueryIsValid(query)) {
        throw new Error(`an invalid list query was answered: ${query} → ${response.text.slice(0, 200)}`);
      }
    }),
    params(listRuns),
  );
  return stats;
}

const LIST_PARAMETERS = ['limit', 'cursor', 'email', 'status', 'created_after', 'created_before'];
/** Instants at and just past both ends of 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999Z, offsets applied. */
const EDGE_INSTANTS = [
  '0000-01-01T00:00:00Z',
  '0000-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00Z',
  '0001-01-01T00:00:00+00:01',
  '0001-01-01T00:00:00+23:59',
  '0001-01-02T00:00:00+23:59',
  '9999-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59.9991Z',
  '9999-12-31T23:59:59+23:59',
  '9999-12-31T23:59:59-00:01',
  '9999-12-31T23:59:59-23:59',
];
/** Every way to write a number that is not plain decimal digits, and some that are. */
const LIMIT_SPELLINGS = ['0x10', '0X10', '0o7', '0b1', '1e1', '1E1', '%205', '5%20', '%2B5', '+5', '-5', '-0', '5.0', '5.', '.5', '01', '0010', '00', '5_0', '%EF%BC%95', '%C2%A05', '5%0A', 'Infinity', 'NaN', '1' + '0'.repeat(30), '0', '1', '100', '101'];

/** Valid and broken list query strings: known parameters with good and bad values, repeats, unknown names. */
const listParameter = fc.oneof(
  fc.integer({ min: -5, max: 130 }).map((n) => `limit=${n}`),
  fc.constantFrom('limit=', 'limit=1.5', 'limit=1e2', 'limit=%20', 'limit=0x10'),
  fc.constantFrom(...LIMIT_SPELLINGS).map((v) => `limit=${v}`),
  fc.tuple(fc.constantFrom('created_after', 'created_before'), fc.constantFrom(...EDGE_INSTANTS)).map(([name, v]) => `${name}=${encodeURIComponent(v)}`),
  // U+0000 in every parameter, alone or inside a value that is otherwise valid.
  fc
    .tuple(fc.constantFrom(...LIST_PARAMETERS), fc.constantFrom('%00', '20%00', '%00active', 'ada%00@example.com', '2026-11-25T09:30:00Z%00', 'a%00b@x.de'))
    .map(([name, v]) => `${name}=${v}`),
  fc.constantFrom('active', 'inactive', 'suspended', 'Active', '', 'deleted').map((v) => `status=${v}`),
  fc.oneof(fc.emailAddress(), fc.constantFrom('', "ada+tag@example.com", '%', '%E0%A4%A', 'a'.repeat(300))).map((v) => `email=${encodeURIComponent(v)}`),
  fc.constantFrom('2026-11-25T09:30:00Z', '2026-11-25T10:30:00.123+01:00', '2026-11-25', '2030-02-30T00:00:00Z', 'yesterday', '').map((v) => `created_after=${encodeURIComponent(v)}`),
  fc.constantFrom('2099-01-01T00:00:00Z', '1970-01-01T00:00:00Z', '2026-13-01T00:00:00Z').map((v) => `created_before=${encodeURIComponent(v)}`),
  fc.constantFrom('cursor=x', 'cursor=eyJ2IjoxfQ', `cursor=${'A'.repeat(600)}`, 'sort=name', '__proto__=1', 'constructor=x', '=', '&&'),
);
const listQuery = fc.array(listParameter, { maxLength: 4 }).map((parts) => parts.join('&'));

/** Whether a list query is valid by openapi.yaml's parameters (cursors aside, which only the server can judge). */
function listQueryIsValid(query: string): boolean {
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(query)) {
    if (seen.has(name) || value.includes('\u0000')) return false;
    seen.add(name);
    const ok =
      name === 'limit' ? /^[1-9]\d*$/.test(value) && Number(value) >= 1 && Number(value) <= 100 :
      name === 'status' ? ['active', 'inactive', 'suspended'].includes(value) :
      name === 'email' ? value.length >= 1 && [...value].length <= 254 :
      name === 'created_after' || name === 'created_before' ? /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value)) && !value.startsWith('2030-02-30') && !value.includes('-13-') && instantInRange(value) :
      false;
    if (!ok) return false;
  }
  return true;
}

/** Whether a date-time names an instant from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, offset applied. */
function instantInRange(value: string): boolean {
  const ms = Date.parse(value);
  const latest = Date.parse('9999-12-31T23:59:59.999Z');
  // Date.parse drops digits past the millisecond: a finer part past the last millisecond is out too.
  return ms >= Date.parse('0001-01-01T00:00:00Z') && (ms < latest || (ms === latest && !/\.\d{3}\d*[1-9]/.test(value)));
}

/** Whether any string in a parsed body holds text the contract calls unstorable (NUL, a lone surrogate). */
function unstorable(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (value && typeof value === 'object') return Object.entries(value).some(([key, item]) => UNSTORABLE.test(key) || unstorable(item));
  return false;
}

function parse(text: string | undefined): { ok: true; value: unknown } | { ok: false } {
  try {
    const value = JSON.parse(text ?? '');
    return value && typeof value === 'object' && !Array.isArray(value) ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}
