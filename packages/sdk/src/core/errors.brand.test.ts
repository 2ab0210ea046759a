import { describe, expect, it } from 'vitest';
import { ConnectionError, CustomersApiError, NotFoundError, TimeoutError } from './errors';

/** The brand another copy of the SDK (the other build, another version) reads for `instanceof`. */
const BRAND = Symbol.for('@customers-api/sdk.error-kinds');
const brandOf = (error: object): unknown => (error as Record<symbol, unknown>)[BRAND];

describe('the cross-copy brand', () => {
  it('lists the class and each ancestor once, from the class up', () => {
    expect(brandOf(new NotFoundError('x'))).toEqual(['NotFoundError', 'CustomersApiError']);
    expect(brandOf(new TimeoutError('x'))).toEqual(['TimeoutError', 'ConnectionError', 'CustomersApiError']);
    expect(brandOf(new CustomersApiError('x'))).toEqual(['CustomersApiError']);
  });

  it("gives a caller's subclass its SDK ancestors' kinds, once each (the subclass has no kind of its own)", () => {
    class MyNotFound extends NotFoundError {}
    class MyMoreSpecific extends MyNotFound {}
    expect(brandOf(new MyNotFound('x'))).toEqual(['NotFoundError', 'CustomersApiError']);
    expect(brandOf(new MyMoreSpecific('x'))).toEqual(['NotFoundError', 'CustomersApiError']);
  });

  it('marks only objects: a function carrying the brand is no SDK error', () => {
    const branded = Object.assign(() => undefined, { [BRAND]: ['NotFoundError', 'CustomersApiError'] });
    expect(branded instanceof NotFoundError).toBe(false);
    expect(branded instanceof CustomersApiError).toBe(false);
  });
});

describe('cause', () => {
  it('is an own property only when one was given, like Error itself', () => {
    expect(Object.hasOwn(new ConnectionError('down'), 'cause')).toBe(false);
    expect(Object.hasOwn(new ConnectionError('down', { cause: undefined }), 'cause')).toBe(false);
    expect(Object.hasOwn(new Error('down'), 'cause')).toBe(false);
    const zero = new ConnectionError('down', { cause: 0 });
    expect(Object.hasOwn(zero, 'cause')).toBe(true);
    expect(zero.cause).toBe(0);
  });
});
