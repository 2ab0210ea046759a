import { parseArgs } from 'node:util';

/** What `customers-api-mock` was asked to do. */
export interface CliOptions {
  port: number;
  host: string;
  seedFile: string | undefined;
  corsOrigins: '*' | string[];
  /** Requests per second per seller, as the server's `--rate-limit`; 0 (the default) simulates none. */
  rateLimit: number;
  /** How many requests the journal keeps (`GET /__mock/requests`). */
  journalSize: number;
  /** Required as `Authorization: Bearer` by the control API, whatever the `Host`; without it, only loopback Hosts. */
  controlToken: string | undefined;
  help: boolean;
  /** Print the package's version and exit. */
  version: boolean;
}

export const USAGE = `Usage: customers-api-mock [--port 4010] [--host 127.0.0.1] [--seed FILE] [--cors-origin ORIGIN ...] [--rate-limit N]
                          [--journal-size N] [--control-token TOKEN]

  --port P              port to listen on (default 4010; 0 picks a free one)
  --host H              address to listen on (default 127.0.0.1)
  --seed FILE           JSON seed file: sellers, their keys and customers (without one, any
                        sk_live_ + 48 letters/digits key is one default seller)
  --cors-origin ORIGIN  allow only this browser origin (repeatable; default any origin)
  --rate-limit N        simulate the server's rate limit: N requests per second per seller, then 429
                        with Retry-After and the RateLimit headers (default 0: none)
  --journal-size N      requests kept for GET /__mock/requests (default 1000; older ones are dropped and counted)
  --control-token TOKEN the control API (/__mock) then requires Authorization: Bearer TOKEN, from any Host;
                        without it, it answers only Host 127.0.0.1, localhost or [::1]
  --version             print the version of @customers-api/mock-server
  --help                show this text`;

/**
 * The command line of `customers-api-mock`; throws a TypeError with the problem for a bad one.
 *
 * @example
 * parseCliOptions(['--port', '4011']); // { port: 4011, host: '127.0.0.1', seedFile: undefined, corsOrigins: '*', rateLimit: 0, journalSize: 1000, ... }
 */
export function parseCliOptions(args: string[]): CliOptions {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      seed: { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      'rate-limit': { type: 'string', default: '0' },
      'journal-size': { type: 'string', default: '1000' },
      'control-token': { type: 'string' },
      help: { type: 'boolean', default: false },
      version: { type: 'boolean', short: 'v', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port!) || port > 65_535) throw new TypeError(`--port must be a whole number from 0 to 65535, got ${values.port}`);
  const rateLimit = Number(values['rate-limit']);
  if (!/^\d+$/.test(values['rate-limit']!) || rateLimit > 2_147_483_647) {
    throw new TypeError(`--rate-limit must be a whole number of requests per second (0: none), got ${values['rate-limit']}`);
  }
  const journalSize = Number(values['journal-size']);
  if (!/^[1-9]\d{0,7}$/.test(values['journal-size']!)) {
    throw new TypeError(`--journal-size must be a whole number of requests from 1 to 99999999, got ${values['journal-size']}`);
  }
  const controlToken = values['control-token'];
  if (controlToken !== undefined && !/^[\x21-\x7e]{16,}$/.test(controlToken)) {
    throw new TypeError('--control-token must be at least 16 printable characters without spaces');
  }
  for (const origin of values['cors-origin'] ?? []) {
    if (!/^https?:\/\/[^/]+$/.test(origin)) throw new TypeError(`--cors-origin must be an origin such as http://localhost:5173, got ${origin}`);
  }
  return {
    port,
    host: values.host!,
    seedFile: values.seed,
    corsOrigins: values['cors-origin'] ?? '*',
    rateLimit,
    journalSize,
    controlToken,
    help: values.help!,
    version: values.version!,
  };
}
