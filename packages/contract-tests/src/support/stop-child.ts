import type { ChildProcess } from 'node:child_process';

/**
 * Stops a child process this suite started: SIGTERM, SIGKILL after `graceMs`, and resolves once it exited
 * (at once when it already has).
 *
 * @example
 * const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
 * await stopChild(child, exited);
 */
export async function stopChild(child: ChildProcess, exited: Promise<void>, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
