// The ceiling: bare Fastify answering a small JSON object, as nothing of ours can be faster.
// Plain JavaScript (no tsx loader in the process), so its memory and speed are Fastify's own.
import Fastify from 'fastify';

process.once('message', async () => {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ status: 'ok', service: 'ceiling' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
  process.send({ url: `http://127.0.0.1:${app.server.address().port}` });
});
