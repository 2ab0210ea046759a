// @customers-api/cli: the `customers` command as a function, for scripts and tests that run it in-process.
export { cliVersion, runCli } from './run-cli.js';
export type { RunCliOptions } from './run-cli.js';
export type { CliIO } from './io.js';
export { DEFAULT_POLL_INTERVAL_MS } from './listen.js';
export { OVERLAP_MS } from './event-poller.js';
export { USAGE } from './usage.js';
