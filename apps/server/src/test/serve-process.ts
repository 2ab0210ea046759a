import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = join(dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** stdout alone: the JSON log lines. */
  stdout(): string;
  /** SIGTERM, then the exit code once the process is gone. */
  stop(): Promise<number | null>;
}

/** The URL the server says it listens on: its `listening` log line, once it has been written. */
function listeningUrl(stdout: string): string | undefined {
  const line = stdout.split('\n').slice(0, -1).find((text) => text.includes('"msg":"listening"'));
  return line === undefined ? undefined : (JSON.parse(line) as { url: string }).url;
}

/**
 * `node dist/cli.js serve` as a real process (with any further flags and environment variables) on a port the system picks (`--port 0`: no
 * window in which another process can take a port found free beforehand); resolves once it logs that it listens,
 * and where.
 *
 * @example
 * const server = await serve(database.url, ['--rate-limit', '5']);
 */
export async function serve(database: string, flags: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--database', database, ...flags], {
    // No shutdown delay unless a test asks for one (--shutdown-delay): stop() would otherwise wait 5 s.
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', SHUTDOWN_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  await new Promise<void>((resolveReady, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      // The banner (stderr) and the log lines (stdout) travel on two pipes: wait for both when a demo was seeded.
      const seeded = stdout.includes('created a demo seller');
      if (listeningUrl(stdout) !== undefined && (!seeded || /dashboard\/login\?token=\S+\n/.test(out))) resolveReady();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    exited.then((code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  const url = listeningUrl(stdout);
  if (url === undefined) throw new Error(`no listening line on stdout: ${stdout}`);
  return {
    child,
    url,
    output: () => out,
    stdout: () => stdout,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
