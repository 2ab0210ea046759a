import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from '@customers-api/server/testing';
import { fromRepoRoot } from '../spec/load-documents.js';
import { stopChild } from '../support/stop-child.js';

export interface PrismProcess {
  url: string;
  /** Everything Prism printed (its request log and violations). */
  output: () => string;
  stop(): Promise<void>;
}

const prismBin = (): string => {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
};

/**
 * Starts `prism mock openapi.yaml` or `prism proxy --errors openapi.yaml <upstream>` on 127.0.0.1 and a free
 * port, and resolves once it listens. stop() kills it (SIGTERM, then SIGKILL) and waits for the exit.
 */
export async function startPrism(mode: { mock: true } | { proxyTo: string }): Promise<PrismProcess> {
  const port = await freePort();
  const spec = fromRepoRoot('openapi.yaml');
  const args = 'mock' in mode
    ? ['mock', '-h', '127.0.0.1', '-p', String(port), spec]
    : ['proxy', '--errors', '-h', '127.0.0.1', '-p', String(port), spec, mode.proxyTo];
  const child: ChildProcess = spawn(process.execPath, [prismBin(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const stop = () => stopChild(child, exited);
  try {
    await new Promise<void>((resolveReady, reject) => {
      const timer = setTimeout(() => reject(new Error(`Prism did not start:\n${output}`)), 90_000);
      const onData = () => {
        if (/Prism is listening/.test(output)) {
          clearTimeout(timer);
          resolveReady();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => reject(new Error(`Prism exited with ${code}:\n${output}`)));
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
