// What a request costs at least on PostgreSQL: Fastify, the key's SHA-256 and ONE named prepared statement per
// request that checks the key (hash, revocation, expiry) and reads or writes the customer: GET a join, list a range
// read (the key's seller by subquery) of `limit + 1` rows on the server's index and order (the page serialized by
// openapi.yaml's `CustomerList`, the server's serializer), POST one `INSERT … SELECT … RETURNING`, PATCH one
// `UPDATE … FROM api_keys … RETURNING`. No validation, plan limit, email or idempotency rules, logging or request
// ids: a yardstick for one round trip per request, pool as the server's.
// Two costs the server has cut are cut here too (issue 41: a floor does the least work its request needs):
// - timestamps come back as the API's strings, sliced from PostgreSQL's UTC text by the server's own type parser
//   (`ISO_TIMESTAMP_TYPES`, connections in UTC), never parsed into a `Date` that is serialized back;
// - the list's limit and status are written into the statement text (one named statement per pair, as the server's
//   `postgresPageStatement`), so PostgreSQL plans it once per connection instead of on every execution.
import { createHash, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { cursorOf, registerOpenApiSchemas } from './from-server.mjs';

const USABLE = 'k.key_hash = $1 and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())';
const COLUMNS = `c.id, c.seller_id, c.first_name, c.last_name, c.email, c.company_name, c.legal_entity, c.language,
  c.status, c.address_data, c.postal_redirect_address, c.source, c.created_at, c.updated_at, c.mode = 'live' as livemode`;
const GET = {
  name: 'floor_get',
  text: `select ${COLUMNS} from api_keys k join customers c on c.seller_id = k.seller_id and c.mode = k.mode where ${USABLE} and c.id = $2`,
};
// The key's seller as a scalar subquery: a join planned generically (prepared) read far more rows than the page.
const SELLER_OF_KEY = `(c.seller_id, c.mode) = (select k.seller_id, k.mode from api_keys k where ${USABLE})`;
/** The list's statements by limit and status, the two written in the text; only values of the shapes below. */
const lists = new Map();
const LIMIT = /^[1-9][0-9]?$|^100$/;
const STATUS = /^[a-z]{1,32}$/;
function listStatement(limit, status) {
  const name = `floor_list_${limit}_${status ?? ''}`;
  let statement = lists.get(name);
  if (!statement) {
    const byStatus = status === undefined ? '' : ` and c.status = '${status}'`;
    const text = `select ${COLUMNS} from customers c where ${SELLER_OF_KEY}${byStatus} order by c.created_at desc, c.id desc limit ${limit + 1}`;
    lists.set(name, (statement = { name, text }));
  }
  return statement;
}
const CREATE = {
  name: 'floor_create',
  text: `insert into customers as c (id, seller_id, mode, first_name, last_name, email, email_normalized, status, source,
      created_at, updated_at)
    select $2, k.seller_id, k.mode, $3, $4, $5, lower($5), 'active', 'api', now(), now() from api_keys k where ${USABLE}
    returning ${COLUMNS}`,
};
const UPDATE = {
  name: 'floor_update',
  // The schema's own rule: every update advances the customer's change number (the server's outbox triggers).
  text: `update customers c set status = $3, company_name = $4, updated_at = now(), event_sequence = c.event_sequence + 1 from api_keys k
    where ${USABLE} and c.seller_id = k.seller_id and c.mode = k.mode and c.id = $2 returning ${COLUMNS}`,
};

process.once('message', async ({ databaseUrl, poolSize = 10 }) => {
  const { ISO_TIMESTAMP_TYPES, POSTGRES_SESSION_OPTIONS } = await import('@customers-api/server');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, options: POSTGRES_SESSION_OPTIONS });
  const query = async (statement, values) => (await pool.query({ ...statement, values, types: ISO_TIMESTAMP_TYPES })).rows;
  const app = Fastify({ logger: false });
  const hashOf = (request) => {
    const key = request.headers['x-api-key'];
    return typeof key === 'string' ? createHash('sha256').update(key).digest('hex') : '';
  };
  const answer = async (reply, statement, values, status) => {
    const rows = await query(statement, values);
    if (rows.length === 0) return reply.code(404).send({ error: 'Not Found' });
    return reply.code(status).send(rows[0]);
  };
  const schema = registerOpenApiSchemas(app);
  app.get('/api/customers', { schema: { response: { 200: schema('CustomerList') } } }, async (request, reply) => {
    const { limit: text = '20', status } = request.query;
    // Only what may be written into SQL text: the load's values are all of these shapes.
    if (!LIMIT.test(text) || (status !== undefined && !STATUS.test(status))) return reply.code(400).send({ error: 'Bad Request' });
    const limit = Number(text);
    const rows = await query(listStatement(limit, status), [hashOf(request)]);
    const hasMore = rows.length > limit;
    const data = hasMore ? rows.slice(0, limit) : rows;
    const last = data[data.length - 1];
    return { data, has_more: hasMore, next_cursor: hasMore ? cursorOf(last.created_at, last.id) : null };
  });
  app.get('/api/customers/:id', (request, reply) => answer(reply, GET, [hashOf(request), request.params.id], 200));
  app.post('/api/customers', (request, reply) => {
    const { first_name, last_name, email } = request.body;
    return answer(reply, CREATE, [hashOf(request), randomUUID(), first_name, last_name, email], 201);
  });
  app.patch('/api/customers/:id', (request, reply) => {
    const { status, company_name } = request.body;
    return answer(reply, UPDATE, [hashOf(request), request.params.id, status, company_name], 200);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.once('SIGTERM', () => app.close().then(() => pool.end()).then(() => process.exit(0)));
  process.send({ url: `http://127.0.0.1:${app.server.address().port}` });
});
