import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import binaries from '@customers-api/runtime-binaries';
import { NODE_VERSIONS, nodeBinary } from './node-binaries.js';

const require = createRequire(import.meta.url);

export interface Runtime {
  name: string;
  /** The command and the arguments that come before the script path. */
  command: string;
  args: string[];
}

/**
 * The JavaScript runtimes the SDK promises to work on: this Node, Node 22 and 24 (fetched from npm), and Bun and
 * Deno (binaries from npm packages pinned in the workspace catalog). All linux-x64, like our machines.
 */
export async function resolveRuntimes(): Promise<Runtime[]> {
  return [
    { name: `node ${process.versions.node}`, command: process.execPath, args: [] },
    { name: 'node 22', command: await nodeBinary(NODE_VERSIONS.node22), args: [] },
    { name: 'node 24', command: await nodeBinary(NODE_VERSIONS.node24), args: [] },
    { name: 'bun', command: binaries.bun, args: [] },
    // Deno: all permissions for the local server, no lockfile written into the SDK's folder.
    { name: 'deno', command: binaries.deno, args: ['run', '--allow-all', '--no-lock'] },
  ];
}

/** The SDK's own smoke scripts, run against the built package through its `exports` map. */
const sdkDir = dirname(require.resolve('@customers-api/sdk/package.json'));
export const smokeScripts = [
  { format: 'esm', path: join(sdkDir, 'test', 'smoke', 'smoke.mjs') },
  { format: 'cjs', path: join(sdkDir, 'test', 'smoke', 'smoke.cjs') },
] as const;

/** The SDK's webhook smoke scripts: verify a delivery signed by core (as the server signs), refuse a tampered one. */
export const webhookScripts = [
  { format: 'esm', path: join(sdkDir, 'test', 'smoke', 'webhooks.mjs') },
  { format: 'cjs', path: join(sdkDir, 'test', 'smoke', 'webhooks.cjs') },
] as const;
