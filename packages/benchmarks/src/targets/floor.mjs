// What any GET of a customer costs at least here: Fastify, the key's SHA-256, two prepared better-sqlite3 reads
// (key, customer) and the row as JSON. No validation, logging, tenancy errors or request ids: a yardstick for how
// much of the server's cost is its own, not part of the product.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

process.once('message', async ({ databaseUrl }) => {
  const sqlite = new Database(databaseUrl.slice('sqlite:'.length));
  sqlite.pragma('busy_timeout = 5000');
  const keyByHash = sqlite.prepare(
    'select api_keys.seller_id as sellerId from api_keys join sellers on sellers.id = api_keys.seller_id where key_hash = ? and revoked_at is null',
  );
  const customerById = sqlite.prepare('select * from customers where seller_id = ? and id = ?');
  const app = Fastify({ logger: false });
  app.decorateRequest('sellerId', '');
  app.addHook('onRequest', async (request, reply) => {
    const key = request.headers['x-api-key'];
    const row = typeof key === 'string' ? keyByHash.get(createHash('sha256').update(key).digest('hex')) : undefined;
    if (!row) return reply.code(401).send({ error: 'Unauthorized' });
    request.sellerId = row.sellerId;
  });
  app.get('/api/customers/:id', async (request, reply) => {
    const row = customerById.get(request.sellerId, request.params.id);
    if (!row) return reply.code(404).send({ error: 'Not Found' });
    const { email_normalized: _, ...customer } = row;
    return customer;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
  process.send({ url: `http://127.0.0.1:${app.server.address().port}` });
});
