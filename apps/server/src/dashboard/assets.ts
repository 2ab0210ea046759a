import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

/** The page scripts every Settings page loads; built by apps/dashboard (TypeScript) into its dist/. */
export const PAGE_SCRIPTS = ['keys.js', 'webhooks.js', 'endpoint.js', 'activity.js', 'request-logs.js', 'events.js', 'customers.js'] as const;

/**
 * The pages' shell (HTML templates, styles, icon: src/dashboard/assets) and the page scripts (built by
 * @customers-api/dashboard from TypeScript), read once into memory.
 */
export function loadDashboardAssets(): DashboardAssets {
  if (cached) return cached;
  const assets = new Map<string, Asset>();
  for (const dir of [findShellDir(), findScriptsDir()]) {
    for (const name of readdirSync(dir)) {
      const type = TYPES[extname(name)];
      if (type) assets.set(name, { body: readFileSync(join(dir, name)), type });
    }
  }
  const missing = PAGE_SCRIPTS.filter((name) => !assets.has(name));
  if (missing.length > 0) throw new Error(`dashboard scripts ${missing.join(', ')} not found: build @customers-api/dashboard first`);
  cached = assets;
  return assets;
}

const here = dirname(fileURLToPath(import.meta.url));

function findShellDir(): string {
  // dist/dashboard-assets (the build copies them), src/dashboard/assets (from source, or beside dist in the repo).
  const candidates = [join(here, 'dashboard-assets'), join(here, 'assets'), join(here, '../src/dashboard/assets')];
  const found = candidates.find((dir) => existsSync(join(dir, 'keys.html')));
  if (!found) throw new Error(`dashboard assets not found in ${candidates.join(' or ')}`);
  return found;
}

function findScriptsDir(): string {
  // The server's build copies them beside its bundle; from source they come from the workspace package's dist/.
  const bundled = join(here, 'dashboard-assets');
  if (existsSync(join(bundled, 'keys.js'))) return bundled;
  return join(dirname(createRequire(import.meta.url).resolve('@customers-api/dashboard/package.json')), 'dist');
}
