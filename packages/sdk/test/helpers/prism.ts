import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const PRISM = fileURLToPath(new URL('../../node_modules/.bin/prism', import.meta.url));
const SPEC = fileURLToPath(new URL('../../../../openapi.yaml', import.meta.url));

/** Asks the OS for a free port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface Prism {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Starts `prism mock` on openapi.yaml on a free 127.0.0.1 port and resolves once it answers HTTP. */
export async function startPrism(): Promise<Prism> {
  const port = await freePort();
  const child: ChildProcess = spawn(PRISM, ['mock', '-h', '127.0.0.1', '-p', String(port), SPEC], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}:\n${output}`);
    try {
      await fetch(`${baseUrl}/api/customers/health-probe`);
      return { baseUrl, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  await stop();
  throw new Error(`prism did not listen on ${baseUrl} within 45 s:\n${output}`);
}
