import { parseArgs } from 'node:util';
import { resolveConfig } from '../config.js';
import { startServer } from '../server/start-server.js';
import type { CliIo } from './io.js';

export const SERVE_USAGE =
  'serve [--port N] [--host H] [--database URL] [--log-level LEVEL] [--request-timeout MS] [--trust-proxy [HOPS|ADDRESSES]] ' +
  '[--sqlite-synchronous full|normal] [--rate-limit N] [--redis URL] [--allow-private-webhooks] [--secret-key-file PATH] ' +
  '[--metrics-port N] [--metrics-host H] [--audit-retention-days N] [--no-audit-client-addresses] [--shutdown-delay MS] [--statement-timeout MS] [--trust-traceparent] [--request-logs on|off]';

/**
 * Runs the server until SIGTERM or SIGINT, then shuts down so a load balancer sees it coming (start-server.ts's
 * shutdown: /readyz 503 for the delay, then the listener closes and in-flight requests finish).
 */
export async function serveCommand(args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({
    args: withBareTrustProxy(args),
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      database: { type: 'string' },
      'log-level': { type: 'string' },
      'request-timeout': { type: 'string' },
      'trust-proxy': { type: 'string' },
      'sqlite-synchronous': { type: 'string' },
      'rate-limit': { type: 'string' },
      redis: { type: 'string' },
      'allow-private-webhooks': { type: 'boolean' },
      'secret-key-file': { type: 'string' },
      'metrics-port': { type: 'string' },
      'metrics-host': { type: 'string' },
      'audit-retention-days': { type: 'string' },
      'no-audit-client-addresses': { type: 'boolean' },
      'shutdown-delay': { type: 'string' },
      'statement-timeout': { type: 'string' },
      'trust-traceparent': { type: 'boolean' },
      'request-logs': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const config = resolveConfig(
    {
      port: values.port,
      host: values.host,
      database: values.database,
      logLevel: values['log-level'],
      requestTimeout: values['request-timeout'],
      trustProxy: values['trust-proxy'],
      sqliteSynchronous: values['sqlite-synchronous'],
      rateLimit: values['rate-limit'],
      redis: values.redis,
      allowPrivateWebhooks: values['allow-private-webhooks'],
      secretKeyFile: values['secret-key-file'],
      metricsPort: values['metrics-port'],
      metricsHost: values['metrics-host'],
      auditRetentionDays: values['audit-retention-days'],
      noAuditClientAddresses: values['no-audit-client-addresses'],
      shutdownDelay: values['shutdown-delay'],
      statementTimeout: values['statement-timeout'],
      trustTraceparent: values['trust-traceparent'],
      requestLogs: values['request-logs'],
    },
    io.env,
  );
  // The demo key and sign-in link go to stderr as a banner: stdout carries the JSON log lines only.
  const server = await startServer(config, { print: io.err });
  await new Promise<void>((resolveStopped) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      server.shutdown(signal).then(resolveStopped, (error: unknown) => {
        io.err(`Error while stopping: ${error instanceof Error ? error.message : String(error)}\n`);
        resolveStopped();
      });
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

/** A bare `--trust-proxy` (the switch it used to be) means one hop: it becomes `--trust-proxy=true`. */
export function withBareTrustProxy(args: string[]): string[] {
  return args.map((arg, index) => {
    const next = args[index + 1];
    return arg === '--trust-proxy' && (next === undefined || next.startsWith('-')) ? '--trust-proxy=true' : arg;
  });
}
