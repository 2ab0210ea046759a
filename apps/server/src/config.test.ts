import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.js';

describe('resolveConfig', () => {
  it('defaults to 127.0.0.1:3000 on the SQLite file under ./data, 30 s requests, no proxy, durable SQLite', () => {
    expect(resolveConfig({}, {})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/customers.db',
      logLevel: 'info',
      requestTimeoutMs: 30_000,
      trustProxy: 0,
      sqliteSynchronous: 'full',
      rateLimit: 100,
      allowPrivateWebhooks: false,
      trustTraceparent: false,
      webhookSecretKey: {},
      auditRetentionDays: 365,
      auditClientAddresses: true,
      shutdownDelayMs: 5_000,
      statementTimeoutMs: 10_000,
      requestLogs: true,
    });
  });
  it('takes request logs from --request-logs or REQUEST_LOGS (on by default), and refuses anything but on and off', () => {
    expect(resolveConfig({ requestLogs: 'off' }, { REQUEST_LOGS: 'on' }).requestLogs).toBe(false);
    expect(resolveConfig({}, { REQUEST_LOGS: 'off' }).requestLogs).toBe(false);
    expect(resolveConfig({ requestLogs: 'on' }, {}).requestLogs).toBe(true);
    expect(() => resolveConfig({ requestLogs: 'false' }, {})).toThrow('Invalid request logs setting "false": use on or off');
  });
  it('takes the shutdown delay from --shutdown-delay or SHUTDOWN_DELAY_MS (0 allowed), and refuses bad ones', () => {
    expect(resolveConfig({ shutdownDelay: '0' }, { SHUTDOWN_DELAY_MS: '9000' })).toMatchObject({ shutdownDelayMs: 0 });
    expect(resolveConfig({}, { SHUTDOWN_DELAY_MS: '1500' })).toMatchObject({ shutdownDelayMs: 1500 });
    for (const bad of ['-1', '1.5', 'soon', '600001']) {
      expect(() => resolveConfig({ shutdownDelay: bad }, {})).toThrow(`Invalid shutdown delay "${bad}"`);
    }
  });
  it('takes the rate limit and Redis URL from flags or RATE_LIMIT and REDIS_URL, and refuses bad ones', () => {
    expect(resolveConfig({}, { RATE_LIMIT: '0', REDIS_URL: 'redis://127.0.0.1:6379' })).toMatchObject({
      rateLimit: 0,
      redisUrl: 'redis://127.0.0.1:6379',
    });
    expect(resolveConfig({ rateLimit: '5', redis: 'rediss://cache:6380' }, { RATE_LIMIT: '0' })).toMatchObject({
      rateLimit: 5,
      redisUrl: 'rediss://cache:6380',
    });
    for (const bad of ['-1', '1.5', 'ten', '2147483648']) {
      expect(() => resolveConfig({ rateLimit: bad }, {})).toThrow(`Invalid rate limit "${bad}"`);
    }
    expect(() => resolveConfig({ redis: 'http://:secret@cache' }, {})).toThrow(/^Invalid Redis URL \(not repeated/);
    expect(() => resolveConfig({ redis: 'http://:secret@cache' }, {})).not.toThrow(/secret/);
  });
  it('takes the metrics listener and the audit settings from flags or METRICS_PORT, METRICS_HOST, AUDIT_*', () => {
    expect(resolveConfig({}, {}).metricsPort).toBeUndefined();
    expect(resolveConfig({}, { METRICS_PORT: '9464' })).toMatchObject({ metricsPort: 9464, metricsHost: '127.0.0.1' });
    expect(resolveConfig({ metricsPort: '0', metricsHost: '0.0.0.0' }, { METRICS_PORT: '9464' })).toMatchObject({ metricsPort: 0, metricsHost: '0.0.0.0' });
    expect(() => resolveConfig({ metricsPort: 'x' }, {})).toThrow('Invalid metrics port "x"');
    expect(resolveConfig({}, { AUDIT_RETENTION_DAYS: '30', AUDIT_CLIENT_ADDRESSES: 'false' })).toMatchObject({
      auditRetentionDays: 30,
      auditClientAddresses: false,
    });
    expect(resolveConfig({ auditRetentionDays: '7', noAuditClientAddresses: true }, {})).toMatchObject({ auditRetentionDays: 7, auditClientAddresses: false });
    for (const bad of ['0', '-1', '1.5', '36501']) {
      expect(() => resolveConfig({ auditRetentionDays: bad }, {})).toThrow(`Invalid audit retention "${bad}"`);
    }
  });
  it('takes the environment, and flags over the environment', () => {
    const env = {
      PORT: '4000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://db/x',
      LOG_LEVEL: 'warn',
      REQUEST_TIMEOUT_MS: '5000',
      TRUST_PROXY: 'true',
      SQLITE_SYNCHRONOUS: 'normal',
    };
    expect(resolveConfig({}, env)).toEqual({
      port: 4000,
      host: '0.0.0.0',
      databaseUrl: 'postgres://db/x',
      logLevel: 'warn',
      requestTimeoutMs: 5000,
      trustProxy: 1,
      sqliteSynchronous: 'normal',
      rateLimit: 100,
      allowPrivateWebhooks: false,
      trustTraceparent: false,
      webhookSecretKey: {},
      auditRetentionDays: 365,
      auditClientAddresses: true,
      shutdownDelayMs: 5_000,
      statementTimeoutMs: 10_000,
      requestLogs: true,
    });
    expect(
      resolveConfig({ port: '5000', database: 'sqlite:/tmp/x.db', requestTimeout: '250', sqliteSynchronous: 'full' }, env),
    ).toMatchObject({ port: 5000, databaseUrl: 'sqlite:/tmp/x.db', requestTimeoutMs: 250, sqliteSynchronous: 'full' });
    expect(resolveConfig({ trustProxy: 'true' }, {}).trustProxy).toBe(1);
    expect(resolveConfig({}, { TRUST_PROXY: '0' }).trustProxy).toBe(0);
  });
  it('takes --trust-proxy as one hop (true, a bare flag), a hop count or a list of proxy addresses and CIDRs', () => {
    expect(resolveConfig({}, { TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(resolveConfig({}, { TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(resolveConfig({ trustProxy: '2' }, { TRUST_PROXY: 'true' }).trustProxy).toBe(2);
    expect(resolveConfig({ trustProxy: '10.0.0.0/8, 192.0.2.7,fd00::/8,loopback' }, {}).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['11', '-1', '10.0.0.0/33', 'fd00::/129', '10.0.0.1/8/8', 'proxy.example', '10.0.0.1,', 'yes']) {
      expect(() => resolveConfig({ trustProxy: bad }, {})).toThrow(`Invalid --trust-proxy "${bad}"`);
    }
  });
  it('takes --allow-private-webhooks and the webhook key source: --secret-key-file, WEBHOOK_SECRET_KEY, WEBHOOK_SECRET_KEY_FILE', () => {
    expect(resolveConfig({ allowPrivateWebhooks: true }, {}).allowPrivateWebhooks).toBe(true);
    expect(resolveConfig({}, { ALLOW_PRIVATE_WEBHOOKS: 'true' }).allowPrivateWebhooks).toBe(true);
    expect(resolveConfig({ trustTraceparent: true }, {}).trustTraceparent).toBe(true);
    expect(resolveConfig({}, { TRUST_TRACEPARENT: 'true' }).trustTraceparent).toBe(true);
    const env = { WEBHOOK_SECRET_KEY: 'k', WEBHOOK_SECRET_KEY_FILE: '/env.key' };
    expect(resolveConfig({ secretKeyFile: '/flag.key' }, env).webhookSecretKey).toEqual({ file: '/flag.key' });
    expect(resolveConfig({}, env).webhookSecretKey).toEqual({ key: 'k' });
    expect(resolveConfig({}, { WEBHOOK_SECRET_KEY_FILE: '/env.key' }).webhookSecretKey).toEqual({ file: '/env.key' });
  });
  it('rejects a bad port, log level, request timeout, proxy switch or SQLite mode with a clear message', () => {
    expect(() => resolveConfig({ port: 'abc' }, {})).toThrow('Invalid port "abc"');
    expect(() => resolveConfig({ port: '70000' }, {})).toThrow('Invalid port');
    expect(() => resolveConfig({ logLevel: 'loud' }, {})).toThrow('Invalid log level "loud"');
    expect(() => resolveConfig({ requestTimeout: '0' }, {})).toThrow('Invalid request timeout "0"');
    expect(() => resolveConfig({ requestTimeout: '30s' }, {})).toThrow('Invalid request timeout "30s"');
    expect(() => resolveConfig({}, { TRUST_PROXY: 'maybe' })).toThrow('Invalid TRUST_PROXY "maybe"');
    expect(() => resolveConfig({ sqliteSynchronous: 'off' }, {})).toThrow('Invalid SQLite synchronous mode "off"');
  });
});
