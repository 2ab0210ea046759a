#!/usr/bin/env node
// The breaking-change guard: `pnpm spec:check [FILE]` (default openapi.yaml) diffs FILE against the latest released
// spec (specs/released/<version>.yaml) with Optic's breaking-change rules and fails on a breaking change, unless
// FILE introduces a new version (a newer first entry in `x-api-versions`, not released yet). It reads only: nothing
// is generated or written. See "Changing the API" in the README.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const releasedDir = join(root, 'specs', 'released');
const file = resolve(process.argv[2] ?? join(root, 'openapi.yaml'));
const shown = file.startsWith(`${root}/`) ? relative(root, file) : file;
const fail = (message) => {
  console.error(`spec:check: ${message}`);
  process.exit(1);
};

if (!existsSync(file)) fail(`${file} does not exist`);
const released = readdirSync(releasedDir)
  .filter((name) => /^\d{4}-\d{2}-\d{2}\.yaml$/.test(name))
  .map((name) => name.slice(0, -'.yaml'.length))
  .sort();
const latestReleased = released.at(-1);
if (!latestReleased) fail(`no released spec in ${relative(root, releasedDir)}`);

let versions;
try {
  versions = parse(readFileSync(file, 'utf8'))?.['x-api-versions'];
} catch (error) {
  fail(`${file} is not valid YAML: ${error.message}`);
}
if (!Array.isArray(versions) || typeof versions[0]?.version !== 'string') fail(`${file} has no x-api-versions list`);
const listed = versions.map((entry) => String(entry.version));
const newest = listed[0];
const missing = released.filter((version) => !listed.includes(version));
if (missing.length > 0) fail(`x-api-versions no longer lists the released version(s) ${missing.join(', ')}`);
if (newest < latestReleased) fail(`x-api-versions must list the newest version first (${latestReleased} is released)`);

if (newest > latestReleased) {
  // A new version may break the previous one: its change module (core) translates old callers.
  console.log(`spec:check: ${shown} introduces version ${newest}; breaking changes against ${latestReleased} are allowed. Release it by copying the spec to specs/released/${newest}.yaml.`);
  process.exit(0);
}

const base = join(releasedDir, `${latestReleased}.yaml`);
const optic = join(root, 'node_modules', '.bin', 'optic');
// No telemetry or error reports to Optic's servers (the check runs offline), and CI unset: in CI mode Optic writes
// ci-run-details.json into its working directory, and this check writes nothing.
const env = { ...process.env, OPTIC_TELEMETRY_LEVEL: 'off', NO_COLOR: '1', FORCE_COLOR: '0' };
delete env.CI;
const result = spawnSync(optic, ['diff', base, file, '--check', '--severity', 'error'], { cwd: root, encoding: 'utf8', env });
const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.replace(/\n?Rerun this command with the --web flag.*\n?/, '\n');
if (result.error) fail(`could not run optic: ${result.error.message}`);
if (result.status === 0) {
  console.log(`spec:check: ${shown} has no breaking change against the released ${latestReleased}.`);
  process.exit(0);
}
console.error(output.trimEnd());
fail(
  `${shown} breaks the released version ${latestReleased} (see above). Make the change additive, or introduce it as a new version: a newer entry first in x-api-versions (with its change module in core).`,
);
