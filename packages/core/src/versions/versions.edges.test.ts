import { describe, expect, it } from 'vitest';
import { customerEvent } from '../events/customer-change.js';
import { FIXTURE_OLD_VERSION, fixtureVersioning } from '../testing/fixture-version.js';
import type { Customer, CustomerEvent } from '../types.js';
import { LATEST_API_VERSION, openApiVersions, resolveApiVersion, type ApiVersion } from './api-version.js';
import { eventInVersion } from './event-version.js';

const sending = (value?: string) => (name: string) => (name === 'customers-version' ? value : undefined);

describe('resolveApiVersion at its edges', () => {
  it('refuses the latest asked for by name once it is past a sunset of its own', () => {
    const list: ApiVersion[] = [{ version: '2027-03-01', summary: '', sunset: '2027-06-01' }];
    const { version, error } = resolveApiVersion(sending('2027-03-01'), () => new Date('2027-06-01T00:00:00Z'), list);
    expect(version).toBe('2027-03-01');
    expect(error?.status).toBe(400);
    expect(resolveApiVersion(sending('2027-03-01'), () => new Date('2027-05-31T00:00:00Z'), list)).toEqual({ version: '2027-03-01' });
  });

  it('answers in the API’s latest version when given no versions at all, asked for it by name or not', () => {
    expect(resolveApiVersion(sending(), undefined, [])).toEqual({ version: LATEST_API_VERSION });
    expect(resolveApiVersion(sending(LATEST_API_VERSION), undefined, [])).toEqual({ version: LATEST_API_VERSION });
  });

  it('reads no clock for an older version when no version has a sunset', () => {
    const now = () => {
      throw new Error('clock read');
    };
    const list: ApiVersion[] = [
      { version: '2027-03-01', summary: '' },
      { version: '2026-11-26', summary: '', deprecated: '2027-03-01' },
    ];
    expect(resolveApiVersion(sending('2026-11-26'), now, list)).toEqual({ version: '2026-11-26' });
  });
});

describe('the real clock by default', () => {
  const farSunset: ApiVersion[] = [
    { version: '2027-03-01', summary: '' },
    { version: '2026-11-26', summary: '', sunset: '2999-01-01' },
  ];

  it('decides sunsets for resolveApiVersion and openApiVersions when no clock is given', () => {
    expect(resolveApiVersion(sending('2026-11-26'), undefined, farSunset)).toEqual({ version: '2026-11-26' });
    expect(openApiVersions(undefined, farSunset)).toEqual(['2027-03-01', '2026-11-26']);
  });
});

describe('eventInVersion at the latest', () => {
  const customer = {
    id: '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61',
    seller_id: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a',
  } as Customer;
  const event = customerEvent({
    eventId: 'evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e',
    type: 'customer.deleted',
    sellerId: customer.seller_id,
    mode: 'live',
    customerId: customer.id,
    sequence: 1,
    occurredAt: '2026-11-25T09:30:00.000Z',
    customer,
  });

  it('names the latest version in a copy of an event that names another, leaving the event as it was', () => {
    const stale = { ...event, api_version: FIXTURE_OLD_VERSION } as CustomerEvent;
    const rendered = eventInVersion(stale, undefined, { versioning: fixtureVersioning() });
    expect(rendered.body).toEqual({ ...event, api_version: LATEST_API_VERSION });
    expect(stale.api_version).toBe(FIXTURE_OLD_VERSION);
  });

  it('gives every event of one versioning the same header, naming its latest', () => {
    const versioning = fixtureVersioning();
    const first = eventInVersion(event, null, { versioning });
    expect(eventInVersion(event, LATEST_API_VERSION, { versioning }).headers).toEqual(first.headers);
    expect(first.headers).toEqual({ 'Customers-Version': LATEST_API_VERSION });
  });
});
