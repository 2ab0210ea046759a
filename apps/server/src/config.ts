import { DEFAULT_DATABASE_URL, DEFAULT_STATEMENT_TIMEOUT_MS, SQLITE_SYNCHRONOUS_MODES, type SqliteSynchronous } from './db/connect.js';
import { isIP } from 'node:net';
import type { TrustProxy } from './http/server-options.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './http/timeouts.js';
import { DEFAULT_RATE_LIMIT } from './rate-limit/request-limits.js';
import { secretKeySource } from './webhooks/secret-key.js';
import { DEFAULT_AUDIT_RETENTION_DAYS } from './audit/audit-log.js';

export interface ServerConfig {
  port: number;
  host: string;
  databaseUrl: string;
  logLevel: string;
  /** Time for a whole request (headers and body) to arrive; 408 after it. 30 s when omitted. */
  requestTimeoutMs?: number;
  /**
   * The proxies whose X-Forwarded-For/-Host/-Proto are believed: a hop count (1 behind one load balancer) or their
   * addresses/CIDRs. 0 (none) when omitted.
   */
  trustProxy?: TrustProxy;
  /** SQLite's durability: `full` (default, survives power loss) or `normal` (faster, may lose the last commits). */
  sqliteSynchronous?: SqliteSynchronous;
  /** PostgreSQL connections per process; DEFAULT_POSTGRES_POOL_SIZE (measured, see BENCHMARKS.md) when omitted. */
  postgresPoolSize?: number;
  /** PostgreSQL `statement_timeout` in ms (0: none); DEFAULT_STATEMENT_TIMEOUT_MS when omitted. */
  statementTimeoutMs?: number;
  /** Requests per second per seller (burst of as many); 0 turns rate limiting off. 100 when omitted. */
  rateLimit?: number;
  /** Redis URL for rate-limit counts shared by several processes; each process counts alone when omitted. */
  redisUrl?: string;
  /** Deliver webhooks to loopback and private addresses too (local development, tests). Off when omitted. */
  allowPrivateWebhooks?: boolean;
  /** Continue a client's `traceparent` (its sampling decision and trace id); off: it is only a span link. */
  trustTraceparent?: boolean;
  /** Where the key sealing webhook secrets is read from (see webhooks/secret-key.ts); the default file when empty. */
  webhookSecretKey?: { file?: string; key?: string };
  /** Port of the separate Prometheus listener (GET /metrics); no metrics when omitted. */
  metricsPort?: number;
  /** Its address; 127.0.0.1 when omitted (never the API's port). */
  metricsHost?: string;
  /** Days audit rows are kept; 365 when omitted. */
  auditRetentionDays?: number;
  /** Whether audit rows record the client's address; on when omitted. */
  auditClientAddresses?: boolean;
  /**
   * After SIGTERM, how long /readyz answers 503 while the listener still accepts (so a load balancer sees it and
   * moves traffic away) before it closes. DEFAULT_SHUTDOWN_DELAY_MS when omitted.
   */
  shutdownDelayMs?: number;
  /** Whether sellers' requests are recorded for the dashboard's Request logs page; on when omitted. */
  requestLogs?: boolean;
}

export const DEFAULT_SHUTDOWN_DELAY_MS = 5_000;
const MAX_SHUTDOWN_DELAY_MS = 600_000;

export interface ConfigFlags {
  port?: string | undefined;
  host?: string | undefined;
  database?: string | undefined;
  logLevel?: string | undefined;
  requestTimeout?: string | undefined;
  /** `true` (a bare --trust-proxy: one hop), a hop count, or a comma list of proxy addresses/CIDRs. */
  trustProxy?: string | undefined;
  sqliteSynchronous?: string | undefined;
  rateLimit?: string | undefined;
  redis?: string | undefined;
  allowPrivateWebhooks?: boolean | undefined;
  trustTraceparent?: boolean | undefined;
  secretKeyFile?: string | undefined;
  metricsPort?: string | undefined;
  metricsHost?: string | undefined;
  auditRetentionDays?: string | undefined;
  noAuditClientAddresses?: boolean | undefined;
  shutdownDelay?: string | undefined;
  statementTimeout?: string | undefined;
  /** `on` or `off`. */
  requestLogs?: string | undefined;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const MAX_REQUEST_TIMEOUT_MS = 3_600_000;

/**
 * Flags win over the environment (PORT, HOST, DATABASE_URL, LOG_LEVEL, REQUEST_TIMEOUT_MS, TRUST_PROXY,
 * SQLITE_SYNCHRONOUS, RATE_LIMIT, REDIS_URL, ALLOW_PRIVATE_WEBHOOKS, WEBHOOK_SECRET_KEY, WEBHOOK_SECRET_KEY_FILE,
 * METRICS_PORT, METRICS_HOST, AUDIT_RETENTION_DAYS, AUDIT_CLIENT_ADDRESSES, REQUEST_LOGS), which
 * wins over the defaults.
 */
export function resolveConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv): ServerConfig {
  const portText = flags.port ?? env.PORT ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) throw new Error(`Invalid port "${portText}": use a number from 0 to 65535`);
  const logLevel = flags.logLevel ?? env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`Invalid log level "${logLevel}": use one of ${LOG_LEVELS.join(', ')}`);
  return {
    port,
    host: flags.host ?? env.HOST ?? '127.0.0.1',
    databaseUrl: databaseUrlFrom(flags.database, env),
    logLevel,
    requestTimeoutMs: requestTimeoutFrom(flags.requestTimeout ?? env.REQUEST_TIMEOUT_MS),
    trustProxy:
      flags.trustProxy !== undefined ? trustProxyFrom('--trust-proxy', flags.trustProxy) : trustProxyFrom('TRUST_PROXY', env.TRUST_PROXY),
    sqliteSynchronous: sqliteSynchronousFrom(flags.sqliteSynchronous ?? env.SQLITE_SYNCHRONOUS),
    rateLimit: rateLimitFrom(flags.rateLimit ?? env.RATE_LIMIT),
    ...redisUrlFrom(flags.redis ?? env.REDIS_URL),
    allowPrivateWebhooks: flags.allowPrivateWebhooks === true || booleanFrom('ALLOW_PRIVATE_WEBHOOKS', env.ALLOW_PRIVATE_WEBHOOKS),
    trustTraceparent: flags.trustTraceparent === true || booleanFrom('TRUST_TRACEPARENT', env.TRUST_TRACEPARENT),
    webhookSecretKey: secretKeySource(flags.secretKeyFile, env),
    ...metricsFrom(flags.metricsPort ?? env.METRICS_PORT, flags.metricsHost ?? env.METRICS_HOST),
    auditRetentionDays: auditRetentionFrom(flags.auditRetentionDays ?? env.AUDIT_RETENTION_DAYS),
    shutdownDelayMs: shutdownDelayFrom(flags.shutdownDelay ?? env.SHUTDOWN_DELAY_MS),
    statementTimeoutMs: statementTimeoutFrom(flags.statementTimeout ?? env.STATEMENT_TIMEOUT_MS),
    auditClientAddresses: flags.noAuditClientAddresses !== true && booleanFrom('AUDIT_CLIENT_ADDRESSES', env.AUDIT_CLIENT_ADDRESSES || 'true'),
    requestLogs: requestLogsFrom(flags.requestLogs ?? env.REQUEST_LOGS),
  };
}

/** `--request-logs` / REQUEST_LOGS: `on` (the default when empty) or `off`; anything else is an error naming it. */
export function requestLogsFrom(text: string | undefined): boolean {
  if (text === undefined || text === '' || text === 'on') return true;
  if (text === 'off') return false;
  throw new Error(`Invalid request logs setting "${text}": use on or off`);
}

/** The largest rate limit accepted (a PostgreSQL integer), for the server default and per seller alike. */
export const MAX_RATE_LIMIT = 2_147_483_647;

/**
 * A rate limit as typed by an operator: a whole number from 0 (off) to {@link MAX_RATE_LIMIT}, else undefined.
 *
 * @example
 * parseRateLimit('100'); // 100
 */
export function parseRateLimit(text: string): number | undefined {
  const value = Number(text);
  return /^\d+$/.test(text) && value <= MAX_RATE_LIMIT ? value : undefined;
}

/** `--rate-limit` / RATE_LIMIT as typed: the server's default when empty; an error naming the value otherwise. */
export function rateLimitFrom(text: string | undefined): number {
  if (text === undefined || text === '') return DEFAULT_RATE_LIMIT;
  const value = parseRateLimit(text);
  if (value === undefined) throw new Error(`Invalid rate limit "${text}": use requests per second from 0 (off) to ${MAX_RATE_LIMIT}`);
  return value;
}

function metricsFrom(portText: string | undefined, host: string | undefined): { metricsPort?: number; metricsHost?: string } {
  if (portText === undefined || portText === '') return {};
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) throw new Error(`Invalid metrics port "${portText}": use a number from 0 to 65535`);
  return { metricsPort: port, metricsHost: host || '127.0.0.1' };
}

const MAX_AUDIT_RETENTION_DAYS = 36_500;

function auditRetentionFrom(text: string | undefined): number {
  if (text === undefined || text === '') return DEFAULT_AUDIT_RETENTION_DAYS;
  const days = Number(text);
  if (!/^\d+$/.test(text) || days < 1 || days > MAX_AUDIT_RETENTION_DAYS) {
    throw new Error(`Invalid audit retention "${text}": use days from 1 to ${MAX_AUDIT_RETENTION_DAYS}`);
  }
  return days;
}

/** `--redis` / REDIS_URL as typed: none when empty; an error (never echoing it) when not a redis URL. */
export function redisUrlFrom(text: string | undefined): { redisUrl?: string } {
  if (text === undefined || text === '') return {};
  if (!/^rediss?:\/\//.test(text)) throw new Error('Invalid Redis URL (not repeated: it may hold a password): use redis://HOST:PORT or rediss://…');
  return { redisUrl: text };
}

export function databaseUrlFrom(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? (env.DATABASE_URL || DEFAULT_DATABASE_URL);
}

/** `--shutdown-delay` / SHUTDOWN_DELAY_MS: milliseconds, 0 (close at once) allowed. */
function shutdownDelayFrom(text: string | undefined): number {
  if (text === undefined || text === '') return DEFAULT_SHUTDOWN_DELAY_MS;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms > MAX_SHUTDOWN_DELAY_MS) {
    throw new Error(`Invalid shutdown delay "${text}": use milliseconds from 0 to ${MAX_SHUTDOWN_DELAY_MS}`);
  }
  return ms;
}

function statementTimeoutFrom(text: string | undefined): number {
  if (text === undefined || text === '') return DEFAULT_STATEMENT_TIMEOUT_MS;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms > MAX_REQUEST_TIMEOUT_MS) {
    throw new Error(`Invalid statement timeout "${text}": use milliseconds from 0 (none) to ${MAX_REQUEST_TIMEOUT_MS}`);
  }
  return ms;
}

function requestTimeoutFrom(text: string | undefined): number {
  if (text === undefined || text === '') return DEFAULT_REQUEST_TIMEOUT_MS;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms < 1 || ms > MAX_REQUEST_TIMEOUT_MS) {
    throw new Error(`Invalid request timeout "${text}": use milliseconds from 1 to ${MAX_REQUEST_TIMEOUT_MS}`);
  }
  return ms;
}

/** The most proxy hops accepted: far more than any real chain, so a typo like 10000 is caught. */
const MAX_PROXY_HOPS = 10;
/** proxy-addr's names for well-known ranges, accepted in a --trust-proxy list. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * --trust-proxy / TRUST_PROXY: `true` (and a bare flag) means one hop, `false`/empty none, a number that many hops,
 * anything else a comma list of proxy addresses and CIDRs (every entry checked here, so a typo stops the start).
 */
function trustProxyFrom(name: string, text: string | undefined): TrustProxy {
  const value = (text ?? '').trim().toLowerCase();
  if (value === '' || value === 'false') return 0;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value) && Number(value) <= MAX_PROXY_HOPS) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.every(isProxyAddress)) return entries;
  throw new Error(
    `Invalid ${name} "${text}": use true (one proxy), a number of proxy hops from 0 to ${MAX_PROXY_HOPS}, or a comma list of ` +
      'proxy addresses or CIDRs (e.g. 10.0.0.0/8,fd00::/8)',
  );
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

function booleanFrom(name: string, text: string | undefined): boolean {
  const value = (text ?? '').trim().toLowerCase();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new Error(`Invalid ${name} "${text}": use true or false`);
}

function sqliteSynchronousFrom(text: string | undefined): SqliteSynchronous {
  const value = (text || 'full').toLowerCase();
  if (!(SQLITE_SYNCHRONOUS_MODES as readonly string[]).includes(value)) {
    throw new Error(`Invalid SQLite synchronous mode "${text}": use ${SQLITE_SYNCHRONOUS_MODES.join(' or ')}`);
  }
  return value as SqliteSynchronous;
}
