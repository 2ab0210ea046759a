import { describe, expect, it } from 'vitest';
import { SMOKE } from './config.js';
import { serversAboveFloors } from './floor-check.js';
import type { BenchReport, Row } from './run-benchmarks.js';

const row = (id: string, label: string): Row => ({ id, kind: 'server', label, rps: 1, p50: 1, p99: 1, failures: 0 });

/** A report with every floor ratio unmeasured (NaN) but those given. */
function reportWith(ratios: Partial<Pick<BenchReport, 'postgresOverFloor' | 'sqliteOverFloor' | 'redisLimitedOverFloor'>>): BenchReport {
  const unmeasured = { get: Number.NaN, list: Number.NaN, post: Number.NaN };
  return {
    config: SMOKE,
    rows: [row('postgres-list', 'server PostgreSQL LIST'), row('floor-pg-list', 'floor: PostgreSQL LIST')],
    serverOverPrism: Number.NaN,
    mockOverPrism: Number.NaN,
    scaleP99Ratio: Number.NaN,
    listScaleP99Ratio: { sqlite: Number.NaN, postgres: Number.NaN },
    postScaleP99Ratio: { sqlite: Number.NaN, postgres: Number.NaN },
    listOverGet: Number.NaN,
    mswOverBare: Number.NaN,
    versionsShare: Number.NaN,
    sdk: undefined,
    backlog: { seeded: {}, api: {} },
    seconds: 1,
    redisLimitedOverFloor: Number.NaN,
    ...ratios,
    postgresOverFloor: { ...unmeasured, patch: Number.NaN, mixed: Number.NaN, ...ratios.postgresOverFloor },
    sqliteOverFloor: { ...unmeasured, ...ratios.sqliteOverFloor },
  };
}

describe('a server row above its floor', () => {
  it('is reported with both rows named, by id and label, and the ratio', () => {
    const messages = serversAboveFloors(reportWith({ postgresOverFloor: { list: 1.15 } as BenchReport['postgresOverFloor'] }));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^postgres-list \(server PostgreSQL LIST\) is at 115% of its floor floor-pg-list \(floor: PostgreSQL LIST\)/);
  });

  it('is found on every pair: SQLite, PostgreSQL and the Redis-limited GET', () => {
    const messages = serversAboveFloors(
      reportWith({
        sqliteOverFloor: { get: 1.01, list: 0.9, post: 1.2 },
        postgresOverFloor: { mixed: 1.3 } as BenchReport['postgresOverFloor'],
        redisLimitedOverFloor: 1.05,
      }),
    );
    expect(messages.map((message) => message.split(' ')[0])).toEqual(['sqlite-get', 'sqlite-post', 'postgres-mixed', 'sqlite-get-ratelimit-redis']);
    expect(messages[0]).toContain('of its floor floor-get ');
    expect(messages[3]).toContain('of its floor floor-get-redis ');
  });

  it('is not reported at exactly 100%, below it, or when the pair was not measured in the run', () => {
    expect(serversAboveFloors(reportWith({ sqliteOverFloor: { get: 1, list: 0.99, post: Number.NaN } }))).toEqual([]);
  });
});
