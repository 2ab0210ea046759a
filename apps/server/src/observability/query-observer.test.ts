import { describe, expect, it } from 'vitest';
import { describeStatement, operationOf, statementSpanName } from './query-observer.js';

describe('describeStatement', () => {
  it("names a statement's operation and first table, quoted or not, never its parameters", () => {
    expect(describeStatement('select "id", "email" from "customers" where "seller_id" = ? limit 1')).toEqual({ operation: 'SELECT', collection: 'customers' });
    expect(describeStatement('INSERT INTO webhook_deliveries (id) VALUES ($1)')).toEqual({ operation: 'INSERT', collection: 'webhook_deliveries' });
    expect(describeStatement('update "api_keys" set "last_used_at" = $1')).toEqual({ operation: 'UPDATE', collection: 'api_keys' });
    expect(describeStatement('delete from "audit_log" where "id" in (select "id" from "audit_log" limit 500)')).toEqual({ operation: 'DELETE', collection: 'audit_log' });
    expect(describeStatement("select * from customers where email = 'ada@example.com'").collection).toBe('customers');
  });

  it('leaves the table empty where none is named plainly, and keeps OTHER statements table-less', () => {
    expect(describeStatement('select 1')).toEqual({ operation: 'SELECT', collection: '' });
    expect(describeStatement('select pg_advisory_xact_lock($1)')).toEqual({ operation: 'SELECT', collection: '' });
    expect(describeStatement('select * from customers_create($1, $2)')).toEqual({ operation: 'SELECT', collection: '' });
    expect(describeStatement('begin')).toEqual({ operation: 'OTHER', collection: '' });
    expect(describeStatement('with due as (select id from webhook_deliveries) update x set y = 1')).toEqual({ operation: 'OTHER', collection: '' });
    expect(operationOf('  vacuum')).toBe('OTHER');
  });

  it('names spans `{operation} {table}`, or the operation alone', () => {
    expect(statementSpanName({ operation: 'SELECT', collection: 'customers' })).toBe('SELECT customers');
    expect(statementSpanName({ operation: 'OTHER', collection: '' })).toBe('OTHER');
  });
});
