import { readFileSync } from 'node:fs';
import { isApiError, parseCustomerCreate, resolveApiVersion, type CustomerCreate, type CustomerSeed, type KeySeed, type SellerSeed } from '@customers-api/core';
import { apiKeyAt, arrayAt, customerLimitAt, EntryError, instantAt, KEY_SHAPE, keyKindAt, keyLifecycleAt, objectAt, sellerIdAt } from './entries.js';
import { WEBHOOK_ENTRIES, webhookEntryAt, type WebhookEndpointSeed } from './webhook-entry.js';

/** A seed file, checked: the sellers for core's mock engine, their further keys and their customers. */
export interface Seed {
  /** Without a `sellers` entry: undefined, and any well-formed key is one default seller (as without a seed). */
  sellers: SellerSeed[] | undefined;
  /** Every key after a seller's first, for `MockApi.addKey`. */
  moreKeys: Array<{ sellerId: string; key: KeySeed }>;
  /** One entry per seller, in the file's order, so `seed[i]` in a refusal is `seed.sellers[i]`. */
  customers: CustomerSeed[];
  /** Where change events are delivered from the start (and again after each reset). */
  webhooks: WebhookEndpointSeed[];
  /** The seed's `clock.now`: the mock's clock starts frozen there (and returns there on reset); undefined: the wall clock. */
  clockNow: string | undefined;
}

/** A seed file the mock refuses; the message names the entry (`seed.sellers[1].keys[0].key: ...`). */
export class SeedFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeedFileError';
  }
}

/**
 * Entries a seed file may have (seed.schema.json lists the same; a test holds them together). Unknown ones are refused (a typo such as `"seller"` would otherwise start a
 * mock with other keys than meant); a later feature adds its entry here together with its meaning.
 */
export const SEED_ENTRIES = {
  seed: ['$schema', 'sellers', 'webhooks', 'clock'],
  seller: ['id', 'customerLimit', 'apiVersion', 'keys', 'customers'],
  key: ['key', 'revoked', 'expiresAt', 'scopes'],
  webhook: WEBHOOK_ENTRIES,
  clock: ['now'],
} as const;
const ENTRIES = SEED_ENTRIES;

function parseKey(value: unknown, at: string, seen: Map<string, string>): KeySeed {
  const entries = objectAt(value, at, ENTRIES.key);
  const apiKey = apiKeyAt(entries.key, `${at}.key`);
  if (apiKey === undefined) throw new EntryError(`${at}.key`, `is required: ${KEY_SHAPE}`);
  if (seen.has(apiKey)) throw new EntryError(`${at}.key`, `is already given at ${seen.get(apiKey)}.key`);
  seen.set(apiKey, at);
  return { apiKey, ...keyLifecycleAt(entries, at), ...keyKindAt({ scopes: entries.scopes }, apiKey, at) };
}

/** `apiVersion`: one of openapi.yaml's versions not past its sunset, by core's `Customers-Version` rule. */
function apiVersionAt(value: unknown, at: string): string | undefined {
  if (value === undefined) return undefined;
  const sent = typeof value === 'string' ? value : '';
  const { error } = resolveApiVersion(() => sent);
  if (error) throw new EntryError(at, error.message.replace(/^Customers-Version header /, ''));
  return sent;
}

function parseCustomer(value: unknown, at: string): CustomerCreate {
  try {
    parseCustomerCreate(value);
  } catch (error) {
    throw new EntryError(at, isApiError(error) ? error.message : String(error));
  }
  return value as CustomerCreate;
}

type SellerEntries = Pick<Seed, 'sellers' | 'moreKeys' | 'customers'>;

function parseSellers(sellers: unknown): SellerEntries {
  const seed = { sellers: [] as SellerSeed[], moreKeys: [] as Seed['moreKeys'], customers: [] as CustomerSeed[] };
  const keys = new Map<string, string>();
  const ids = new Map<string, string>();
  arrayAt(sellers, 'seed.sellers').forEach((entry, s) => {
    const at = `seed.sellers[${s}]`;
    const { id, customerLimit, apiVersion, keys: keyList, customers } = objectAt(entry, at, ENTRIES.seller);
    const given = sellerIdAt(id, `${at}.id`);
    if (given && ids.has(given)) throw new EntryError(`${at}.id`, `is already given at ${ids.get(given)}.id`);
    const sellerId = given ?? globalThis.crypto.randomUUID();
    ids.set(sellerId, at);
    const limit = customerLimitAt(customerLimit, `${at}.customerLimit`);
    const [first, ...rest] = arrayAt(keyList, `${at}.keys`, { nonEmpty: true }).map((key, k) => parseKey(key, `${at}.keys[${k}]`, keys));
    const pinned = apiVersionAt(apiVersion, `${at}.apiVersion`);
    seed.sellers.push({
      ...first!,
      sellerId,
      ...(limit !== undefined && { customerLimit: limit }),
      ...(pinned !== undefined && { apiVersion: pinned }),
    });
    seed.moreKeys.push(...rest.map((key) => ({ sellerId, key })));
    const bodies = customers === undefined ? [] : arrayAt(customers, `${at}.customers`);
    seed.customers.push({ sellerId, customers: bodies.map((body, c) => parseCustomer(body, `${at}.customers[${c}]`)) });
  });
  return seed;
}

/** `webhooks`: endpoints whose `sellerId`, when given, is one of `sellers` (undefined: the file has none). */
function parseWebhooks(webhooks: unknown, sellers: SellerSeed[] | undefined): WebhookEndpointSeed[] {
  if (webhooks === undefined) return [];
  return arrayAt(webhooks, 'seed.webhooks').map((entry, w) => {
    const at = `seed.webhooks[${w}]`;
    const endpoint = webhookEntryAt(entry, at);
    if (endpoint.sellerId === undefined) return endpoint;
    if (!sellers) throw new EntryError(`${at}.sellerId`, 'needs seed.sellers: without it there is one default seller, and it gets every event');
    if (!sellers.some((seller) => seller.sellerId === endpoint.sellerId)) throw new EntryError(`${at}.sellerId`, 'is not the id of a seller in seed.sellers');
    return endpoint;
  });
}

function parseEntries(value: unknown): Seed {
  const { sellers, webhooks, clock } = objectAt(value, 'seed', ENTRIES.seed);
  // Without `sellers`, any well-formed key is the default seller, as without a seed file.
  const parsed: SellerEntries = sellers === undefined ? { sellers: undefined, moreKeys: [], customers: [] } : parseSellers(sellers);
  const clockNow = clock === undefined ? undefined : instantAt(objectAt(clock, 'seed.clock', ENTRIES.clock).now, 'seed.clock.now');
  if (clock !== undefined && clockNow === undefined) throw new EntryError('seed.clock.now', 'is required: an ISO 8601 date-time, e.g. 2020-01-01T00:00:00Z');
  return { ...parsed, webhooks: parseWebhooks(webhooks, parsed.sellers), clockNow };
}

/**
 * Checks a parsed seed file and turns it into core's seeds and the webhook endpoints; throws
 * {@link SeedFileError} naming the first bad entry. Rules the store decides (a duplicate email, the plan
 * limit) are checked when the seed is applied.
 *
 * @example
 * parseSeed({ sellers: [{ keys: [{ key: 'sk_live_' + 'a'.repeat(48) }] }] }); // one seller, a generated id
 * parseSeed({ webhooks: [{ url: 'http://127.0.0.1:9000/hook' }] }); // the default seller; every event to one URL
 */
export function parseSeed(value: unknown): Seed {
  try {
    return parseEntries(value);
  } catch (error) {
    throw error instanceof EntryError ? new SeedFileError(error.message) : error;
  }
}

/**
 * Reads and checks a seed file (JSON); a {@link SeedFileError} names the file or the entry and the problem.
 *
 * @example
 * const seed = readSeedFile('mock-seed.json');
 */
export function readSeedFile(path: string): Seed {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SeedFileError(`cannot read the seed file ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SeedFileError(`the seed file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseSeed(value);
}
