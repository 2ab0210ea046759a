import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LogEvent } from '../core/logger';
import { deprecationLink, reportDeprecation } from './deprecation';

// What a deprecation notice says for each form of the headers, and that a broken logger never breaks a call.

afterEach(() => vi.restoreAllMocks());

const base = { method: 'GET', url: 'http://127.0.0.1:3000/api/customers/1', attempt: 1 };

/** The message the logger is given for a response with these headers (a fresh client each time). */
function messageFor(headers: Record<string, string>): string {
  const events: LogEvent[] = [];
  reportDeprecation({}, base, '/api/customers/{id}', new Headers(headers), (e) => events.push(e));
  expect(events).toHaveLength(1);
  return events[0]!.type === 'deprecation' ? events[0]!.message : '';
}

describe('reportDeprecation', () => {
  it('writes an RFC 9745 @seconds date as the day, and any other form as sent', () => {
    expect(messageFor({ deprecation: '@1798761600' })).toContain('deprecated since 2027-01-01.');
    expect(messageFor({ deprecation: ' @1798761600 ' })).toContain('deprecated since 2027-01-01.');
    expect(messageFor({ deprecation: '@-86400' })).toContain('deprecated since 1969-12-31.');
    expect(messageFor({ deprecation: 'Fri, 01 Jan 2027 00:00:00 GMT' })).toContain('deprecated since Fri, 01 Jan 2027 00:00:00 GMT.');
    expect(messageFor({ deprecation: 'x@1798761600' })).toContain('deprecated since x@1798761600.');
    expect(messageFor({ deprecation: '@1798761600x' })).toContain('deprecated since @1798761600x.');
    expect(messageFor({ deprecation: '@' })).toContain('deprecated since @.');
    expect(messageFor({ deprecation: 'true' })).toContain('deprecated since true.');
  });

  it('gives the logger the request, the notice and the message as one deprecation event', () => {
    const events: LogEvent[] = [];
    reportDeprecation({}, base, '/api/customers/{id}', new Headers({ deprecation: '@1798761600', 'customers-version': '2026-11-26' }), (e) => events.push(e));
    expect(events).toEqual([
      {
        ...base,
        type: 'deprecation',
        operation: 'GET /api/customers/{id}',
        version: '2026-11-26',
        deprecation: '@1798761600',
        sunset: undefined,
        link: undefined,
        message:
          'GET /api/customers/{id} was answered in API version 2026-11-26, deprecated since 2027-01-01. ' +
          'Move to a newer version (the apiVersion option; newer SDK releases send the newest).',
      },
    ]);
  });

  it('reports each operation of a client once, and another client again', () => {
    const client = {};
    const logger = vi.fn();
    const headers = new Headers({ deprecation: '@1798761600' });
    reportDeprecation(client, base, '/api/customers/{id}', headers, logger);
    reportDeprecation(client, base, '/api/customers/{id}', headers, logger);
    reportDeprecation(client, { ...base, method: 'PATCH' }, '/api/customers/{id}', headers, logger);
    reportDeprecation({}, base, '/api/customers/{id}', headers, logger);
    expect(logger.mock.calls.map(([e]) => (e as { operation: string }).operation)).toEqual([
      'GET /api/customers/{id}',
      'PATCH /api/customers/{id}',
      'GET /api/customers/{id}',
    ]);
  });

  it('swallows a logger that throws, and then warns nowhere else', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const logger = vi.fn(() => {
      throw new Error('broken logger');
    });
    expect(() => reportDeprecation({}, base, '/api/customers', new Headers({ deprecation: '@1798761600' }), logger)).not.toThrow();
    expect(logger).toHaveBeenCalledTimes(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it('gives onDeprecation the notice only: no logger event, no console warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const logger = vi.fn();
    const onDeprecation = vi.fn();
    reportDeprecation({ onDeprecation }, base, '/api/customers', new Headers({ deprecation: '@1798761600', sunset: 'soon' }), logger);
    expect(onDeprecation.mock.calls).toEqual([
      [{ operation: 'GET /api/customers', version: undefined, deprecation: '@1798761600', sunset: 'soon', link: undefined }],
    ]);
    expect(logger).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('deprecationLink: the forms of a Link header', () => {
  it('finds the entry whatever the case of rel, the spacing, or parameters before rel', () => {
    expect(deprecationLink('<https://a.example/d>; REL="Deprecation"')).toBe('https://a.example/d');
    expect(deprecationLink('<https://a.example/d>;rel="deprecation"')).toBe('https://a.example/d');
    expect(deprecationLink('<https://a.example/d>;   rel="deprecation"')).toBe('https://a.example/d');
    expect(deprecationLink('<https://a.example/d>; type="text/html"; rel="deprecation"')).toBe('https://a.example/d');
    expect(deprecationLink('<>; rel="deprecation"')).toBe('');
  });

  it('does not take the URL of another entry, nor a rel that only starts like it', () => {
    expect(deprecationLink('<https://a.example/next>; rel="successor-version", rel="deprecation"')).toBeUndefined();
    expect(deprecationLink('<https://a.example/d> rel="deprecation"')).toBeUndefined();
    expect(deprecationLink('https://a.example/d; rel="deprecation"')).toBeUndefined();
  });
});
