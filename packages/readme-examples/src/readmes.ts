import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every README.md of the repository whose examples users read: the root one and those of `apps/*`, `examples/*`
 * and `packages/*`, as paths relative to `root`.
 *
 * @example
 * listReadmes('/repo'); // ['README.md', 'apps/server/README.md', 'packages/sdk/README.md', ...]
 */
export function listReadmes(root: string): string[] {
  const found = ['README.md'];
  for (const group of ['apps', 'examples', 'packages']) {
    if (!existsSync(join(root, group))) continue;
    for (const name of readdirSync(join(root, group)).sort()) {
      const file = join(group, name, 'README.md');
      if (existsSync(join(root, file))) found.push(file);
    }
  }
  return found.filter((file) => existsSync(join(root, file)));
}
