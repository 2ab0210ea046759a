import { describe, expect, it } from 'vitest';
import { formatStatements } from './postgres.js';

describe('formatStatements (BENCH_PG_STATEMENTS)', () => {
  it("lists each database's statements by time spent executing and planning, the most first, at most perDatabase", () => {
    const text = formatStatements(
      [
        { database: 'delivery_worker_1', calls: 626, execMs: 1494.4, planMs: 4935.2, rows: 44_700, query: 'select 1\n  from   a' },
        { database: 'delivery_worker_1', calls: 625, execMs: 568, planMs: 149, rows: 5000, query: 'with v as (select 2)' },
        { database: 'delivery_worker_1', calls: 1, execMs: 1, planMs: 0, rows: 0, query: 'select 3' },
        { database: 'delivery_floor_1', calls: 313, execMs: 429, planMs: 0, rows: 5000, query: 'update webhook_deliveries' },
      ],
      2,
    );
    expect(text.split('\n')).toEqual([
      'pg_stat_statements, database delivery_floor_1: 429 ms executing and planning',
      '  313 calls, 429 ms exec + 0 ms plan, 5000 rows: update webhook_deliveries',
      'pg_stat_statements, database delivery_worker_1: 7148 ms executing and planning',
      '  626 calls, 1494 ms exec + 4935 ms plan, 44700 rows: select 1 from a',
      '  625 calls, 568 ms exec + 149 ms plan, 5000 rows: with v as (select 2)',
    ]);
  });
});
