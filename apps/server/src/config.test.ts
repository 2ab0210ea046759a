import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.js';

describe('resolveConfig', () => {
  it('defaults to 127.0.0.1:3000 on the SQLite file under ./data', () => {
    expect(resolveConfig({}, {})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/customers.db',
      logLevel: 'info',
    });
  });
  it('takes the environment, and flags over the environment', () => {
    const env = { PORT: '4000', HOST: '0.0.0.0', DATABASE_URL: 'postgres://db/x', LOG_LEVEL: 'warn' };
    expect(resolveConfig({}, env)).toEqual({ port: 4000, host: '0.0.0.0', databaseUrl: 'postgres://db/x', logLevel: 'warn' });
    expect(resolveConfig({ port: '5000', database: 'sqlite:/tmp/x.db' }, env)).toMatchObject({
      port: 5000,
      databaseUrl: 'sqlite:/tmp/x.db',
    });
  });
  it('rejects a bad port or log level with a clear message', () => {
    expect(() => resolveConfig({ port: 'abc' }, {})).toThrow('Invalid port "abc"');
    expect(() => resolveConfig({ port: '70000' }, {})).toThrow('Invalid port');
    expect(() => resolveConfig({ logLevel: 'loud' }, {})).toThrow('Invalid log level "loud"');
  });
});
