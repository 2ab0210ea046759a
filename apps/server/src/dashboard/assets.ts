import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface Asset {
  body: Buffer;
  type: string;
}

export type DashboardAssets = ReadonlyMap<string, Asset>;

let cached: DashboardAssets | undefined;

/**
 * The pages, styles and scripts of src/dashboard/assets, read once into memory.
 */
export function loadDashboardAssets(): DashboardAssets {
  if (cached) return cached;
  const dir = findAssetsDir();
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type) assets.set(name, { body: readFileSync(join(dir, name)), type });
  }
  cached = assets;
  return assets;
}

function findAssetsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // dist/dashboard-assets (the build copies them), src/dashboard/assets (from source, or beside dist in the repo).
  const candidates = [join(here, 'dashboard-assets'), join(here, 'assets'), join(here, '../src/dashboard/assets')];
  const found = candidates.find((dir) => existsSync(join(dir, 'keys.html')));
  if (!found) throw new Error(`dashboard assets not found in ${candidates.join(' or ')}`);
  return found;
}
