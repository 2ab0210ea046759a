// What a request costs at least on PostgreSQL: Fastify, the key's SHA-256 and ONE named prepared statement per
// request that checks the key (hash, revocation, expiry) and reads or writes the customer: GET a join, list a range
// read (the key's seller by subquery) of `limit + 1` rows on the server's index and order (the page serialized by openapi.yaml's `CustomerList`,
// the server's serializer), POST one `INSERT … SELECT … RETURNING`, PATCH one `UPDATE … FROM api_keys … RETURNING`.
// No validation, plan limit, email or idempotency rules, logging or request ids: a yardstick for one round trip per
// request, pool as the server's.
import { createHash, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { cursorOf, registerOpenApiSchemas } from './from-server.mjs';

const USABLE = 'k.key_hash = $1 and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())';
const COLUMNS = `c.id, c.seller_id, c.first_name, c.last_name, c.email, c.company_name, c.legal_entity, c.language,
  c.status, c.address_data, c.postal_redirect_address, c.source, c.created_at, c.updated_at`;
const GET = {
  name: 'floor_get',
  text: `select ${COLUMNS} from api_keys k join customers c on c.seller_id = k.seller_id where ${USABLE} and c.id = $2`,
};
// The key's seller as a scalar subquery: a join planned generically (prepared) read far more rows than the page.
const SELLER_OF_KEY = `c.seller_id = (select k.seller_id from api_keys k where ${USABLE})`;
const NEWEST_FIRST = 'order by c.created_at desc, c.id desc limit $2';
const LIST = {
  name: 'floor_list',
  text: `select ${COLUMNS} from customers c where ${SELLER_OF_KEY} ${NEWEST_FIRST}`,
};
const LIST_BY_STATUS = {
  name: 'floor_list_status',
  text: `select ${COLUMNS} from customers c where ${SELLER_OF_KEY} and c.status = $3 ${NEWEST_FIRST}`,
};
const CREATE = {
  name: 'floor_create',
  text: `insert into customers as c (id, seller_id, first_name, last_name, email, email_normalized, status, source,
      created_at, updated_at)
    select $2, k.seller_id, $3, $4, $5, lower($5), 'active', 'api', now(), now() from api_keys k where ${USABLE}
    returning ${COLUMNS}`,
};
const UPDATE = {
  name: 'floor_update',
  // The schema's own rule: every update advances the customer's change number (the server's outbox triggers).
  text: `update customers c set status = $3, company_name = $4, updated_at = now(), event_sequence = c.event_sequence + 1 from api_keys k
    where ${USABLE} and c.seller_id = k.seller_id and c.id = $2 returning ${COLUMNS}`,
};

process.once('message', async ({ databaseUrl, poolSize = 10 }) => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const app = Fastify({ logger: false });
  const hashOf = (request) => {
    const key = request.headers['x-api-key'];
    return typeof key === 'string' ? createHash('sha256').update(key).digest('hex') : '';
  };
  const answer = async (reply, statement, values, status) => {
    const { rows } = await pool.query({ ...statement, values });
    if (rows.length === 0) return reply.code(404).send({ error: 'Not Found' });
    return reply.code(status).send(rows[0]);
  };
  const schema = registerOpenApiSchemas(app);
  app.get('/api/customers', { schema: { response: { 200: schema('CustomerList') } } }, async (request) => {
    const { limit: text = '20', status } = request.query;
    const limit = Number(text);
    const hash = hashOf(request);
    const statement = status === undefined ? { ...LIST, values: [hash, limit + 1] } : { ...LIST_BY_STATUS, values: [hash, limit + 1, status] };
    const { rows } = await pool.query(statement);
    const hasMore = rows.length > limit;
    const data = (hasMore ? rows.slice(0, limit) : rows).map((row) => {
      row.created_at = row.created_at.toISOString();
      row.updated_at = row.updated_at.toISOString();
      return row;
    });
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
