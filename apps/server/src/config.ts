import { DEFAULT_DATABASE_URL } from './db/connect.js';

export interface ServerConfig {
  port: number;
  host: string;
  databaseUrl: string;
  logLevel: string;
}

export interface ConfigFlags {
  port?: string | undefined;
  host?: string | undefined;
  database?: string | undefined;
  logLevel?: string | undefined;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Flags win over the environment (PORT, HOST, DATABASE_URL, LOG_LEVEL), which wins over the defaults. */
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
  };
}

export function databaseUrlFrom(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? (env.DATABASE_URL || DEFAULT_DATABASE_URL);
}
