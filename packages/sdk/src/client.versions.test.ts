import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, apiError, ID, json, KEY, scriptedFetch } from '../test/helpers/fixtures';
import { CustomersClient } from './client';
import { NotFoundError } from './core/errors';
import type { DeprecationNotice, LogEvent } from './core/logger';
import { API_VERSION } from './generated/api-version';

afterEach(() => vi.restoreAllMocks());

const DEPRECATED = {
  'customers-version': '2026-11-26',
  deprecation: '@1798761600',
  sunset: 'Sat, 01 Jan 2028 00:00:00 GMT',
  link: '<https://example.com/changelog>; rel="successor-version", <https://example.com/migrate/2026-11-26>; rel="deprecation"',
};

describe('Customers-Version', () => {
  it('is sent on every request: the version the SDK was generated for, the newest in openapi.yaml', async () => {
    expect(API_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const { fetch, calls } = scriptedFetch([json(ADA)]);
    const client = new CustomersClient({ apiKey: KEY, fetch });
    await client.customers.get(ID);
    await client.customers.delete(ID);
    expect(calls.map((c) => c.headers.get('customers-version'))).toEqual([API_VERSION, API_VERSION]);
  });

  it('is overridden per client, kept and overridden by withOptions, and per call through headers', async () => {
    const { fetch, calls } = scriptedFetch([json(ADA)]);
    const pinned = new CustomersClient({ apiKey: KEY, fetch, apiVersion: '2025-01-01' });
    await pinned.customers.get(ID);
    await pinned.withOptions({ timeout: 5_000 }).customers.get(ID);
    await pinned.withOptions({ apiVersion: '2027-03-01' }).customers.get(ID);
    await pinned.customers.get(ID, { headers: { 'Customers-Version': '2024-06-30' } });
    expect(calls.map((c) => c.headers.get('customers-version'))).toEqual(['2025-01-01', '2025-01-01', '2027-03-01', '2024-06-30']);
  });

  it('the version a response was answered in is on withResponse() and on errors', async () => {
    const { fetch } = scriptedFetch([json(ADA, 200, { 'customers-version': '2026-11-26' }), apiError(404, 'Not Found', 'no', { 'customers-version': '2026-11-26' })]);
    const client = new CustomersClient({ apiKey: KEY, fetch, maxRetries: 0 });
    expect((await client.customers.get(ID).withResponse()).apiVersion).toBe('2026-11-26');
    const error = await client.customers.get(ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).headers.get('customers-version')).toBe('2026-11-26');
  });

  it('withResponse().apiVersion is undefined when the server sent none', async () => {
    const { fetch } = scriptedFetch([json(ADA)]);
    const client = new CustomersClient({ apiKey: KEY, fetch });
    expect((await client.customers.get(ID).withResponse()).apiVersion).toBeUndefined();
  });
});

describe('deprecated versions', () => {
  it('call onDeprecation once per client and operation, with the version, Sunset and the deprecation Link', async () => {
    const { fetch } = scriptedFetch([json(ADA, 200, DEPRECATED)]);
    const notices: DeprecationNotice[] = [];
    const client = new CustomersClient({ apiKey: KEY, fetch, onDeprecation: (n) => notices.push(n) });
    await client.customers.get(ID);
    await client.customers.get('11111111-2222-4333-8444-555555555555');
    await client.customers.update(ID, { first_name: 'Ada' });
    expect(notices).toEqual([
      { operation: 'GET /api/customers/{id}', version: '2026-11-26', deprecation: '@1798761600', sunset: DEPRECATED.sunset, link: 'https://example.com/migrate/2026-11-26' },
      { operation: 'PATCH /api/customers/{id}', version: '2026-11-26', deprecation: '@1798761600', sunset: DEPRECATED.sunset, link: 'https://example.com/migrate/2026-11-26' },
    ]);
    // Another client reports again: "once" is per client.
    const other = new CustomersClient({ apiKey: KEY, fetch, onDeprecation: (n) => notices.push(n) });
    await other.customers.get(ID);
    expect(notices).toHaveLength(3);
  });

  it('warn through the logger as a deprecation event, once per operation, naming the dates and the link', async () => {
    const { fetch } = scriptedFetch([json(ADA, 200, DEPRECATED)]);
    const events: LogEvent[] = [];
    const client = new CustomersClient({ apiKey: KEY, fetch, logger: (e) => events.push(e) });
    await client.customers.get(ID);
    await client.customers.get(ID);
    const warnings = events.filter((e) => e.type === 'deprecation');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ method: 'GET', attempt: 1, operation: 'GET /api/customers/{id}', sunset: DEPRECATED.sunset });
    expect(warnings[0]!.type === 'deprecation' && warnings[0]!.message).toBe(
      'GET /api/customers/{id} was answered in API version 2026-11-26, deprecated since 2027-01-01; it stops working on ' +
        'Sat, 01 Jan 2028 00:00:00 GMT. Move to a newer version (the apiVersion option; newer SDK releases send the newest): ' +
        'https://example.com/migrate/2026-11-26',
    );
  });

  it('warn with console.warn when there is no logger, and a no-op onDeprecation silences them', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { fetch } = scriptedFetch([json(ADA, 200, { deprecation: '@1798761600' })]);
    await new CustomersClient({ apiKey: KEY, fetch, logger: undefined }).customers.get(ID);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toBe(
      '[customers-api] GET /api/customers/{id} was answered in API version (unknown), deprecated since 2027-01-01. ' +
        'Move to a newer version (the apiVersion option; newer SDK releases send the newest).',
    );
    const logger = vi.fn((_event: LogEvent) => {});
    await new CustomersClient({ apiKey: KEY, fetch, logger, onDeprecation: () => {} }).customers.get(ID);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(logger.mock.calls.map(([e]) => e.type)).toEqual(['request', 'response']);
  });

  it('never break the call: a throwing onDeprecation is ignored, and a current version reports nothing', async () => {
    const { fetch } = scriptedFetch([json(ADA, 200, DEPRECATED), json(ADA)]);
    const onDeprecation = vi.fn(() => {
      throw new Error('broken callback');
    });
    const client = new CustomersClient({ apiKey: KEY, fetch, onDeprecation });
    await expect(client.customers.get(ID)).resolves.toEqual(ADA);
    await expect(client.customers.update(ID, { first_name: 'Ada' })).resolves.toEqual(ADA);
    expect(onDeprecation).toHaveBeenCalledTimes(1);
  });
});
