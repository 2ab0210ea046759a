import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BuildInfo {
  /** The server package's version (its package.json). */
  version: string;
  /** CUSTOMERS_API_COMMIT (set by the image build or the deploy), else `unknown`: no git at run time. */
  commit: string;
}

/**
 * What this process runs, for `customers_build_info`: the package.json found above this module (src/ in a
 * checkout, dist/ once built, whichever depth) and the commit the deploy says.
 *
 * @example
 * buildInfo(process.env); // { version: '0.1.0', commit: '534144e' }
 */
export function buildInfo(env: NodeJS.ProcessEnv): BuildInfo {
  const commit = env.CUSTOMERS_API_COMMIT || 'unknown';
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@customers-api/server' && pkg.version) return { version: pkg.version, commit };
    } catch {
      // No package.json here: one folder up.
    }
  }
  return { version: 'unknown', commit };
}
