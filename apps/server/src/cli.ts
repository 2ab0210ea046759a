#!/usr/bin/env -S node --max-semi-space-size=4
import { readFileSync } from 'node:fs';
import { runCli } from './cli/run-cli.js';

// src/cli.ts and the built dist/cli.js are both one folder below package.json.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const code = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  version,
});
process.exitCode = code;
