import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { recordLog } from '../support/log-capture.js';

export interface ServerProcess {
  url: string;
  pid: number;
  /** kill -9: no shutdown, no draining, no closing of the database. */
  kill9(): Promise<void>;
  /** SIGTERM and wait for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

const cliPath = (): string => {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@customers-api/server/package.json')), 'dist', 'cli.js');
};

/**
 * `node dist/cli.js serve --port 0` of the built server on a database URL, as an operator would run it. Its
 * stdout and stderr (JSON log lines) go into the log capture that the key-leak checks scan.
 */
export async function startServerProcess(databaseUrl: string): Promise<ServerProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [cliPath(), 'serve', '--host', '127.0.0.1', '--port', '0', '--database', databaseUrl, '--log-level', 'info'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DATABASE_URL: '' } },
  );
  let output = '';
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      recordLog(chunk);
      output += chunk.toString();
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  }).catch(async (error) => {
    child.kill('SIGKILL');
    await exited;
    throw error;
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    pid: child.pid!,
    async kill9() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
