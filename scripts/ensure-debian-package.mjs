// A tool some tests drive (Chromium, redis-server) may be missing on a clean machine that has only Node and npm:
// install Debian's package when we are allowed to (root + apt), else say how.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/**
 * Exits 0 when one of `candidates` exists (after installing `pkg` with apt when needed and possible), 1 otherwise.
 *
 * @example
 * ensureDebianPackage({ tool: 'redis-server', pkg: 'redis-server', candidates: ['/usr/bin/redis-server'], hint: '...' });
 */
export function ensureDebianPackage({ tool, pkg, candidates, hint }) {
  const found = candidates.filter(Boolean).find((path) => existsSync(path));
  if (found) {
    console.log(`${tool}: ${found}`);
    process.exit(0);
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    console.error(hint);
    process.exit(1);
  }
  console.log(`${tool}: not found, installing Debian's package (apt-get install ${pkg})...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', pkg], { stdio: 'inherit', env });
  console.log(`${tool}: installed`);
}
