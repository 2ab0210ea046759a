// Installs the workspace with the pinned pnpm (corepack's signature check fails against our registry mirror).
//
// better-sqlite3 is compiled from source on install (its prebuilt downloads are unreachable here), and node-gyp
// would download Node's headers for that. Every Node distribution ships them next to its binary
// (<prefix>/include/node), so point node-gyp there when they are present: the install then needs no network
// beyond the npm registry, whatever the user's npm configuration.
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PNPM = 'pnpm@10.34.8';
const prefix = dirname(dirname(realpathSync(process.execPath)));
const env = { ...process.env };
if (!env.npm_config_nodedir && existsSync(join(prefix, 'include', 'node', 'node.h'))) {
  env.npm_config_nodedir = prefix;
}

const result = spawnSync('npx', ['-y', PNPM, 'install', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
