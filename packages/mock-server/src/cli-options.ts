import { parseArgs } from 'node:util';

/** What `customers-api-mock` was asked to do. */
export interface CliOptions {
  port: number;
  host: string;
  seedFile: string | undefined;
  corsOrigins: '*' | string[];
  /** Requests per second per seller, as the server's `--rate-limit`; 0 (the default) simulates none. */
  rateLimit: number;
  help: boolean;
}

export const USAGE = `Usage: customers-api-mock [--port 4010] [--host 127.0.0.1] [--seed FILE] [--cors-origin ORIGIN ...] [--rate-limit N]

  --port P              port to listen on (default 4010; 0 picks a free one)
  --host H              address to listen on (default 127.0.0.1)
  --seed FILE           JSON seed file: sellers, their keys and customers (without one, any
                        sk_live_ + 48 letters/digits key is one default seller)
  --cors-origin ORIGIN  allow only this browser origin (repeatable; default any origin)
  --rate-limit N        simulate the server's rate limit: N requests per second per seller, then 429
                        with Retry-After and the RateLimit headers (default 0: none)
  --help                show this text`;

/**
 * The command line of `customers-api-mock`; throws a TypeError with the problem for a bad one.
 *
 * @example
 * parseCliOptions(['--port', '4011']); // { port: 4011, host: '127.0.0.1', seedFile: undefined, corsOrigins: '*', rateLimit: 0, help: false }
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
      help: { type: 'boolean', default: false },
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
  for (const origin of values['cors-origin'] ?? []) {
    if (!/^https?:\/\/[^/]+$/.test(origin)) throw new TypeError(`--cors-origin must be an origin such as http://localhost:5173, got ${origin}`);
  }
  return {
    port,
    host: values.host!,
    seedFile: values.seed,
    corsOrigins: values['cors-origin'] ?? '*',
    rateLimit,
    help: values.help!,
  };
}
