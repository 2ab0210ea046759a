import { describe, expect, it } from 'vitest';
import { asDatabaseUnavailable, DatabaseUnavailableError, typingErrors, unavailableKind } from './database-unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('unavailableKind', () => {
  it.each([
    [withCode('ECONNREFUSED'), 'refused'],
    [withCode('ECONNRESET'), 'lost'],
    [withCode('57P01', 'terminating connection due to administrator command'), 'shutting_down'],
    [withCode('57P03', 'the database system is starting up'), 'starting_up'],
    [withCode('57014', 'canceling statement due to statement timeout'), 'timeout'],
    [withCode('08006'), 'lost'],
    [new Error('Connection terminated unexpectedly'), 'lost'],
    [new Error('Client has encountered a connection error and is not queryable'), 'lost'],
    [new Error('timeout exceeded when trying to connect'), 'timeout'],
    [withCode('SQLITE_BUSY'), 'busy'],
    [withCode('SQLITE_BUSY_SNAPSHOT'), 'busy'],
    [withCode('SQLITE_IOERR_WRITE'), 'io'],
    [withCode('SQLITE_FULL'), 'io'],
  ])('%s is %s', (error, kind) => {
    expect(unavailableKind(error)).toBe(kind);
  });

  it.each([
    [withCode('23505', 'duplicate key value violates unique constraint')],
    [withCode('SQLITE_CONSTRAINT_UNIQUE')],
    [withCode('42P01', 'relation does not exist')],
    [new TypeError('x is undefined')],
    ['a string'],
    [undefined],
  ])('%s is not unavailability (a fault or an expected outcome)', (error) => {
    expect(unavailableKind(error)).toBeUndefined();
  });
});

describe('typingErrors', () => {
  it('types an unavailability once, reporting its kind once, and passes anything else through', () => {
    const kinds: string[] = [];
    const typed = typingErrors((kind) => kinds.push(kind));
    const original = withCode('57P01');
    const first = typed(original);
    expect(first).toBeInstanceOf(DatabaseUnavailableError);
    expect((first as DatabaseUnavailableError).cause).toBe(original);
    expect((first as DatabaseUnavailableError).message).toBe('the database is unavailable (shutting_down): x');
    expect(typed(first)).toBe(first);
    const other = withCode('23505');
    expect(typed(other)).toBe(other);
    expect(kinds).toEqual(['shutting_down']);
    expect(asDatabaseUnavailable(other)).toBeUndefined();
  });
});
