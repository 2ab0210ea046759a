#!/usr/bin/env -S node --max-semi-space-size=4
import { readFileSync } from 'node:fs';

// src/cli.ts and the built dist/cli.js are both one folder below package.json.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
// --version answers before the server's modules load (seconds on a busy machine); runCli prints the same.
if (process.argv[2] === '--version' || process.argv[2] === '-v') {
  process.stdout.write(`${version}\n`);
  process.exit(0);
}
const { runCli } = await import('./cli/run-cli.js');

const code = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  version,
});
process.exitCode = code;
