import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const OPENAPI = fileURLToPath(new URL('../../../../openapi.yaml', import.meta.url));

export interface Prism {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** `prism mock openapi.yaml` (static examples) in its own process, once it answers. */
export async function startPrism(): Promise<Prism> {
  const cli = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
  const port = await freePort();
  const child = spawn(process.execPath, [cli, 'mock', '-h', '127.0.0.1', '-p', String(port), OPENAPI], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('prism exited before listening');
    try {
      await fetch(`${url}/api/customers/00000000-0000-4000-8000-000000000000`);
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error('prism did not start within 60 s');
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
