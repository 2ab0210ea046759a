import { AUDIT_USAGE, auditCommand } from './audit-command.js';
import { keysCommand, KEYS_USAGE } from './keys-command.js';
import { CliError, type CliIo } from './io.js';
import { LOGIN_LINK_USAGE, SELLERS_UPDATE_USAGE, SELLERS_USAGE, sellersCommand } from './sellers-command.js';
import { SERVE_USAGE, serveCommand } from './serve-command.js';
import { WEBHOOKS_USAGE, webhooksCommand } from './webhooks-command.js';
import { WEBHOOKS_LISTEN_USAGE, webhooksListenCommand } from './webhooks-listen-command.js';

export const USAGE = [
  'Usage: cli <command>',
  '',
  '  --version    print the version of the server',
  `  ${SERVE_USAGE}`,
  `  ${SELLERS_USAGE}`,
  `  ${SELLERS_UPDATE_USAGE}`,
  `  ${LOGIN_LINK_USAGE}`,
  ...KEYS_USAGE.map((line) => `  ${line}`),
  ...WEBHOOKS_USAGE.map((line) => `  ${line}`),
  `  ${WEBHOOKS_LISTEN_USAGE}`,
  `  ${AUDIT_USAGE}`,
  '',
  'The database is --database URL, else DATABASE_URL, else sqlite:./data/customers.db',
  '(sqlite:<path> or postgres://user:password@host:port/database).',
  'Webhook secrets are sealed with WEBHOOK_SECRET_KEY, else the key file --secret-key-file, else',
  'WEBHOOK_SECRET_KEY_FILE, else webhook-secret.key beside the SQLite file (./data for PostgreSQL).',
  '',
].join('\n');

/**
 * The operator CLI as a function (the bin only wires process streams to it). Returns the exit code:
 * 0 success, 1 a failure the user can fix (message on stderr), 2 wrong usage.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'serve':
        await serveCommand(args, io);
        return 0;
      case 'sellers':
        await sellersCommand(args, io);
        return 0;
      case 'keys':
        await keysCommand(args, io);
        return 0;
      case 'audit':
        await auditCommand(args, io);
        return 0;
      case 'webhooks':
        // listen runs until stopped, so it is a command of its own beside the operator's endpoint commands.
        if (args[0] === 'listen') await webhooksListenCommand(args.slice(1), io);
        else await webhooksCommand(args, io);
        return 0;
      case '--version':
      case '-v':
        io.out(`${io.version ?? 'unknown'}\n`);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        io.err(`Unknown command "${command}".\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`Error: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      io.err(`Error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.err(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
