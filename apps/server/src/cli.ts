#!/usr/bin/env -S node --max-semi-space-size=4
import { runCli } from './cli/run-cli.js';

const code = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
});
process.exitCode = code;
