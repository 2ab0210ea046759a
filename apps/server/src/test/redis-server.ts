import { spawn } from 'node:child_process';
import { freePort } from './free-port.js';

export interface TestRedis {
  /** redis://127.0.0.1:PORT, or redis://:PASSWORD@127.0.0.1:PORT when started with one */
  url: string;
  stop(): Promise<void>;
}

const REDIS_SERVER = process.env.REDIS_SERVER_PATH || '/usr/bin/redis-server';

/**
 * A real redis-server of the test's own on a free loopback port, in memory only (no RDB or AOF files); resolves
 * once it accepts connections. The root `pnpm test` installs Debian's redis-server when missing
 * (scripts/ensure-redis.mjs); a missing binary fails the test that needs it.
 *
 * `password` makes it require one (`--requirepass`), and puts it in `url`.
 *
 * @example
 * const redis = await startRedisServer();
 * await redis.stop();
 */
export async function startRedisServer({ password }: { password?: string } = {}): Promise<TestRedis> {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...(password ? ['--requirepass', password] : [])];
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolveExit) => child.once('close', () => resolveExit()));
  let output = '';
  await new Promise<void>((ready, reject) => {
    child.once('error', (error) => reject(new Error(`cannot start ${REDIS_SERVER}: ${error.message}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) ready();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return {
    url: `redis://${password ? `:${password}@` : ''}127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
