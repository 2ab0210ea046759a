// What a request costs at least on SQLite: Fastify, the key's SHA-256, prepared better-sqlite3 statements and the
// answer. No validation, logging, tenancy errors or request ids: a yardstick for how much of the server's cost is
// its own, not part of the product. Same database as the server (seeded through its migrations: same indexes,
// count and outbox triggers) and the same pragmas for writes.
// - the key: its SHA-256, then its row from memory once found, under the server's rule for SQLite files
//   (`findActiveKey` in apps/server/src/db/api-keys.ts, `keysVersion` in db/connect.ts): a found key's row may be
//   answered from memory while `pragma data_version` of the connection is unchanged (no other connection, of any
//   process, has committed since) and this connection writes no key or seller (the floor never does); revocation and
//   expiry are still decided against the clock on every request. So each request reads `pragma data_version`
//   instead of the key's row (issue 41: the server's list and POST already do so).
// - GET: the key as above and one read (the customer's columns), the row as JSON.
// - list: one range read of `limit + 1` rows on the server's index and order, the page serialized by openapi.yaml's
//   `CustomerList` schema (the server's serializer), a cursor for the next page.
// - POST: one INSERT of every column (the triggers do the rest) in a `BEGIN IMMEDIATE` transaction, the customer
//   serialized by the `Customer` schema. With every commit synced (the server's default), a commit costs more than
//   the insert, so inserts that arrive in the same event-loop turn share one transaction (at most 64), as the
//   server's group commit does: a transaction per request would be far more work than the server does.
// - with `redisUrl`: every request also takes one token with one call of the server's lease script (the shared
//   limiter's Lua, `takeLease`): one Redis round trip per request.
import { createHash, randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { cursorOf, registerOpenApiSchemas, requireFromServer } from './from-server.mjs';

// livemode last, as the API's Customer orders it. The bench's keys are live: live rows only, through the server's
// (seller, mode) indexes.
const COLUMNS = "id, seller_id, first_name, last_name, email, company_name, legal_entity, language, status, address_data, postal_redirect_address, source, created_at, updated_at, mode = 'live' as livemode";
const NEWEST_FIRST = 'order by created_at desc, id desc limit ?';
/** A budget no load reaches (the server's limiter scenarios use the same). */
const LIMIT = 1_000_000;

/** A row as the API shows it: the JSON columns parsed. */
function customerOf(row) {
  if (row.address_data !== null) row.address_data = JSON.parse(row.address_data);
  if (row.postal_redirect_address !== null) row.postal_redirect_address = JSON.parse(row.postal_redirect_address);
  row.livemode = row.livemode === 1;
  return row;
}

process.once('message', async ({ databaseUrl, redisUrl }) => {
  const sqlite = new Database(databaseUrl.slice('sqlite:'.length));
  sqlite.pragma('busy_timeout = 5000');
  // The server's write settings (db/connect.ts): foreign keys checked, every commit synced.
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = FULL');
  const keyByHash = sqlite.prepare(
    'select api_keys.seller_id as sellerId, revoked_at as revokedAt, expires_at as expiresAt from api_keys join sellers on sellers.id = api_keys.seller_id where key_hash = ?',
  );
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  /** Found keys' rows by hash, valid while `data_version` is `keysVersion` (the server's rule, above). */
  const foundKeys = new Map();
  let keysVersion;
  const sellerOfKey = (hash) => {
    const version = dataVersion.get();
    if (version !== keysVersion) {
      foundKeys.clear();
      keysVersion = version;
    }
    let row = foundKeys.get(hash);
    if (!row) {
      row = keyByHash.get(hash);
      if (row) foundKeys.set(hash, row);
    }
    if (!row || row.revokedAt !== null) return undefined;
    return row.expiresAt === null || Date.parse(row.expiresAt) > Date.now() ? row.sellerId : undefined;
  };
  const customerById = sqlite.prepare(`select ${COLUMNS} from customers where seller_id = ? and mode = 'live' and id = ?`);
  const page = sqlite.prepare(`select ${COLUMNS} from customers where seller_id = ? and mode = 'live' ${NEWEST_FIRST}`);
  const pageByStatus = sqlite.prepare(`select ${COLUMNS} from customers where seller_id = ? and mode = 'live' and status = ? ${NEWEST_FIRST}`);
  const insert = sqlite.prepare(
    `insert into customers (id, seller_id, first_name, last_name, email, email_normalized, company_name, legal_entity,
      language, status, address_data, postal_redirect_address, source, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, null, null, 'de', 'active', null, null, 'api', ?, ?)`,
  );
  const insertAll = sqlite.transaction((batch) => {
    for (const values of batch) insert.run(values);
  });
  // Group commit: the inserts of one event-loop turn in one transaction; nobody is answered before its commit.
  let pending = [];
  const flush = () => {
    const batch = pending.splice(0, 64);
    if (pending.length > 0) setImmediate(flush);
    try {
      insertAll.immediate(batch.map(({ values }) => values));
      for (const { resolve } of batch) resolve();
    } catch (error) {
      for (const { reject } of batch) reject(error);
    }
  };
  const create = (values) =>
    new Promise((resolve, reject) => {
      if (pending.push({ values, resolve, reject }) === 1) setImmediate(flush);
    });
  let redis;
  let takeLease;
  if (redisUrl) {
    const IORedis = requireFromServer('ioredis');
    redis = new (IORedis.default ?? IORedis)(redisUrl);
    ({ takeLease } = await import('@customers-api/server'));
  }
  const app = Fastify({ logger: false });
  const schema = registerOpenApiSchemas(app);
  app.decorateRequest('sellerId', '');
  app.addHook('onRequest', async (request, reply) => {
    const key = request.headers['x-api-key'];
    const sellerId = typeof key === 'string' ? sellerOfKey(createHash('sha256').update(key).digest('hex')) : undefined;
    if (sellerId === undefined) return reply.code(401).send({ error: 'Unauthorized' });
    request.sellerId = sellerId;
    if (redis) {
      const lease = await takeLease(redis, `rl:seller:${LIMIT}:${sellerId}`, LIMIT, 1, 1000);
      if (lease.granted === 0) return reply.code(429).send({ error: 'Too Many Requests' });
    }
  });
  app.get('/api/customers/:id', async (request, reply) => {
    const row = customerById.get(request.sellerId, request.params.id);
    if (!row) return reply.code(404).send({ error: 'Not Found' });
    return customerOf(row);
  });
  app.get('/api/customers', { schema: { response: { 200: schema('CustomerList') } } }, async (request) => {
    const { limit: text = '20', status } = request.query;
    const limit = Number(text);
    const rows = status === undefined ? page.all(request.sellerId, limit + 1) : pageByStatus.all(request.sellerId, status, limit + 1);
    const hasMore = rows.length > limit;
    const data = (hasMore ? rows.slice(0, limit) : rows).map(customerOf);
    const last = data[data.length - 1];
    return { data, has_more: hasMore, next_cursor: hasMore ? cursorOf(last.created_at, last.id) : null };
  });
  app.post('/api/customers', { schema: { response: { 201: schema('Customer') } } }, async (request, reply) => {
    const { first_name, last_name, email } = request.body;
    const now = new Date().toISOString();
    const customer = { id: randomUUID(), seller_id: request.sellerId, first_name, last_name, email, company_name: null, legal_entity: null, language: 'de', status: 'active', address_data: null, postal_redirect_address: null, source: 'api', created_at: now, updated_at: now, livemode: true };
    await create([customer.id, customer.seller_id, first_name, last_name, email, email.toLowerCase(), now, now]);
    return reply.code(201).send(customer);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.once('SIGTERM', () => app.close().then(() => redis?.quit()).then(() => process.exit(0)));
  process.send({ url: `http://127.0.0.1:${app.server.address().port}` });
});
