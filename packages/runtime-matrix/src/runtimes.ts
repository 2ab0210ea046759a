import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import binaries from '@customers-api/runtime-binaries';

const require = createRequire(import.meta.url);

export interface Runtime {
  name: string;
  /** The command and the arguments that come before the script path. */
  command: string;
  args: string[];
}

/**
 * The JavaScript runtimes the SDK promises to work on. Each binary comes from an npm package pinned in the
 * workspace catalog (linux-x64 builds), so a clean machine needs nothing but `pnpm install`.
 */
export const runtimes: Runtime[] = [
  { name: `node ${process.versions.node}`, command: process.execPath, args: [] },
  { name: 'node 22', command: binaries.node22, args: [] },
  { name: 'node 24', command: binaries.node24, args: [] },
  { name: 'bun', command: binaries.bun, args: [] },
  // Deno: all permissions for the local server, no lockfile written into the SDK's folder.
  { name: 'deno', command: binaries.deno, args: ['run', '--allow-all', '--no-lock'] },
];

/** The SDK's own smoke scripts, run against the built package through its `exports` map. */
const sdkDir = dirname(require.resolve('@customers-api/sdk/package.json'));
export const smokeScripts = [
  { format: 'esm', path: join(sdkDir, 'test', 'smoke', 'smoke.mjs') },
  { format: 'cjs', path: join(sdkDir, 'test', 'smoke', 'smoke.cjs') },
] as const;
