#!/usr/bin/env node
// customers: the seller's CLI. Exit codes: 0 done, 1 a failed API call or forwarding failure, 2 a bad command line.
import { runCli } from './run-cli.js';

const stop = new AbortController();
// Ctrl-C ends `listen` after the event being forwarded; a second one ends the process at once.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stop.abort();
    process.once(signal, () => process.exit(130));
  });
}
process.exitCode = await runCli(process.argv.slice(2), { signal: stop.signal });
