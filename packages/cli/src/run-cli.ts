import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigurationError, CustomersApiError, CustomersClient, type EventType } from '@customers-api/sdk';
import { listEvents, resendEvent } from './events-command.js';
import { type CliIO, processIO, UsageError } from './io.js';
import { DEFAULT_POLL_INTERVAL_MS, listen } from './listen.js';
import { TRIGGERS, trigger } from './trigger.js';
import { USAGE } from './usage.js';

const EVENT_TYPES: readonly string[] = TRIGGERS;

/** What {@link runCli} reads besides the arguments; each defaults to the process's own. */
export interface RunCliOptions {
  /** Default `process.env` (`CUSTOMERS_API_KEY`, `CUSTOMERS_API_BASE_URL`). */
  env?: Record<string, string | undefined>;
  /** Default stdout and stderr. */
  io?: CliIO;
  /** Stops `listen` (the bin aborts it on SIGINT and SIGTERM). */
  signal?: AbortSignal;
}

const OPTIONS = {
  'base-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  'forward-to': { type: 'string' },
  events: { type: 'string' },
  interval: { type: 'string' },
  'fail-on-error': { type: 'boolean' },
  set: { type: 'string', multiple: true },
  type: { type: 'string' },
  customer: { type: 'string' },
  'undelivered-to': { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  endpoint: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** Which options each command takes besides --base-url, --help and --version. */
const COMMAND_OPTIONS: Record<string, readonly (keyof typeof OPTIONS)[]> = {
  listen: ['forward-to', 'events', 'interval', 'fail-on-error'],
  trigger: ['set'],
  'events list': ['type', 'customer', 'undelivered-to', 'limit', 'json'],
  'events resend': ['endpoint'],
};

/** The package's version, from its package.json (src/ and dist/ are both one folder below it). */
export function cliVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/**
 * Runs one `customers` command line and resolves with its exit code: 0 done, 1 a failed API call or forwarding
 * failure, 2 a bad command line (with the reason, naming the argument). `--help` and `--version` need no key.
 *
 * @example
 * const code = await runCli(['trigger', 'customer.created', '--set', 'first_name=Grace']);
 */
export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<number> {
  const io = options.io ?? processIO;
  const env = options.env ?? process.env;
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
    if (values.version) {
      io.out(cliVersion());
      return 0;
    }
    if (values.help || positionals.length === 0) {
      io.out(USAGE);
      return 0;
    }
    const [command, ...rest] = positionals;
    const name = command === 'events' ? `events ${rest[0] ?? ''}` : command!;
    const args = command === 'events' ? rest.slice(1) : rest;
    const allowed = COMMAND_OPTIONS[name];
    if (!allowed) throw new UsageError(`unknown command: ${name.trim()}`);
    for (const option of Object.keys(values) as (keyof typeof OPTIONS)[]) {
      if (option !== 'base-url' && !allowed.includes(option)) throw new UsageError(`${name} does not take --${option}`);
    }
    const apiKey = env.CUSTOMERS_API_KEY;
    if (!apiKey) throw new UsageError('CUSTOMERS_API_KEY is not set: export your API key (sk_live_...) first');
    const client = new CustomersClient({ apiKey, baseUrl: values['base-url'] ?? env.CUSTOMERS_API_BASE_URL });

    switch (name) {
      case 'listen': {
        if (args.length > 0) throw new UsageError(`listen takes no argument: ${args[0]}`);
        const forwardTo = values['forward-to'];
        if (!forwardTo) throw new UsageError('listen: --forward-to URL is required');
        if (!URL.canParse(forwardTo)) throw new UsageError(`--forward-to ${forwardTo} is not a URL`);
        return await listen(client, io, {
          forwardTo,
          events: values.events === undefined ? undefined : eventTypes(values.events),
          intervalMs: values.interval === undefined ? DEFAULT_POLL_INTERVAL_MS : positiveInteger('--interval', values.interval),
          failOnError: values['fail-on-error'] === true,
          signal: options.signal ?? new AbortController().signal,
        });
      }
      case 'trigger':
        if (args.length > 1) throw new UsageError(`trigger takes one event type, got ${args.join(' ')}`);
        return await trigger(client, io, args[0] ?? '', values.set ?? []);
      case 'events list':
        if (args.length > 0) throw new UsageError(`events list takes no argument: ${args[0]}`);
        return await listEvents(client, io, {
          type: values.type === undefined ? undefined : eventTypes(values.type, '--type')[0],
          customer: values.customer,
          undeliveredTo: values['undelivered-to'],
          limit: values.limit === undefined ? 10 : positiveInteger('--limit', values.limit),
          json: values.json === true,
        });
      default:
        if (args.length > 1) throw new UsageError(`events resend takes one event id, got ${args.join(' ')}`);
        return await resendEvent(client, io, args[0], values.endpoint);
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`customers: ${(error as Error).message}\nRun customers --help for the commands and options.`);
      return 2;
    }
    if (error instanceof ConfigurationError) {
      io.err(`customers: ${error.message}`);
      return 2;
    }
    if (error instanceof CustomersApiError) {
      io.err(`customers: ${error.message}`);
      return 1;
    }
    io.err(`customers: ${(error as Error).message}`);
    return 1;
  }
}

function eventTypes(list: string, option = '--events'): EventType[] {
  const types = list.split(',').map((type) => type.trim());
  const unknown = types.filter((type) => !EVENT_TYPES.includes(type));
  if (unknown.length > 0 || types.length === 0) {
    throw new UsageError(`${option} ${unknown.join(',') || list}: not an event type (one of ${EVENT_TYPES.join(', ')})`);
  }
  return types as EventType[];
}

function positiveInteger(option: string, value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < 1) throw new UsageError(`${option} ${value}: expected a positive whole number`);
  return number;
}
