#!/usr/bin/env node
// customers-api-mock: the stateful HTTP mock of the Customer Management API. Exit codes: 0 stopped by
// SIGTERM/SIGINT, 1 failed to start, 2 bad command line or seed file.
import { readFileSync } from 'node:fs';
import { SeedError } from '@customers-api/core';
import { banner } from './banner.js';
import { parseCliOptions, USAGE } from './cli-options.js';
import { isLoopbackListen } from './control-access.js';
import { createMockServer } from './mock-server.js';
import { readSeedFile, SeedFileError } from './seed-file.js';

function exitWith(code: number, message: string): never {
  console.error(`customers-api-mock: ${message}`);
  process.exit(code);
}

let options;
try {
  options = parseCliOptions(process.argv.slice(2));
} catch (error) {
  exitWith(2, `${(error as Error).message}\n${USAGE}`);
}
if (options.version) {
  // src/cli.ts and the built dist/cli.js are both one folder below package.json (which the tarball always holds).
  console.log((JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version);
  process.exit(0);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}

try {
  const seed = options.seedFile === undefined ? undefined : readSeedFile(options.seedFile);
  const mock = await createMockServer({
    ...(seed && { seed }),
    corsOrigins: options.corsOrigins,
    rateLimit: options.rateLimit,
    journalSize: options.journalSize,
    ...(options.controlToken !== undefined && { controlToken: options.controlToken }),
  });
  const url = await mock.listen(options.port, options.host);
  console.log(banner(url, mock.api, mock.webhooks.list()));
  if (!isLoopbackListen(options.host) && options.controlToken === undefined) {
    console.log('Note: the control API answers only Host 127.0.0.1, localhost or [::1]; start with --control-token TOKEN to use it by another name.');
  }
  const stop = (signal: string) => {
    console.log(`${signal}: stopping`);
    mock.close().then(() => process.exit(0), () => process.exit(1));
    mock.server.closeAllConnections();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
} catch (error) {
  if (error instanceof SeedFileError || error instanceof SeedError) exitWith(2, error.message);
  exitWith(1, error instanceof Error ? error.message : String(error));
}
