import { describe, expect, it } from 'vitest';
import { customerEvent, type CustomerChange } from '../events/customer-change.js';
import { FIXTURE_OLD_VERSION, fixtureVersioning } from '../testing/fixture-version.js';
import type { Customer } from '../types.js';
import { LATEST_API_VERSION } from './api-version.js';
import { eventInVersion } from './event-version.js';

const customer: Customer = {
  id: '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61',
  seller_id: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  company_name: 'Analytical Engines',
  legal_entity: null,
  language: 'en',
  status: 'active',
  address_data: null,
  postal_redirect_address: null,
  created_at: '2026-11-25T09:30:00.000Z',
  updated_at: '2026-11-25T09:30:00.000Z',
} as Customer;

const change = (type: CustomerChange['type'], previous?: Customer): CustomerChange => ({
  eventId: 'evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e',
  type,
  sellerId: customer.seller_id,
  mode: 'live',
  customerId: customer.id,
  sequence: 2,
  occurredAt: customer.updated_at,
  customer,
  previous,
});

describe('eventInVersion', () => {
  const versioning = fixtureVersioning();

  it('gives an endpoint pinned to the latest (or to nothing) the event as it is, with api_version and the header', () => {
    const event = customerEvent(change('customer.created'));
    expect(event.api_version).toBe(LATEST_API_VERSION);
    for (const pin of [LATEST_API_VERSION, null, undefined]) {
      const rendered = eventInVersion(event, pin, { versioning });
      expect(rendered.version).toBe(LATEST_API_VERSION);
      expect(rendered.body).toBe(event);
      expect(rendered.headers).toEqual({ 'Customers-Version': LATEST_API_VERSION });
    }
  });

  it('translates the event down to an older pin through the chain, and leaves the given event unchanged', () => {
    const event = customerEvent(change('customer.updated', { ...customer, company_name: 'Babbage & Co' }));
    const before = structuredClone(event);
    const rendered = eventInVersion(event, FIXTURE_OLD_VERSION, { versioning });
    expect(rendered.version).toBe(FIXTURE_OLD_VERSION);
    expect(rendered.headers).toEqual({ 'Customers-Version': FIXTURE_OLD_VERSION });
    expect(rendered.body.api_version).toBe(FIXTURE_OLD_VERSION);
    const data = rendered.body.data as { customer: Record<string, unknown>; changed_fields: string[] };
    expect(data.customer.company).toBe('Analytical Engines');
    expect(data.customer).not.toHaveProperty('company_name');
    expect(data.changed_fields).toEqual(['company']);
    expect(event).toEqual(before);
  });

  it('leaves a deleted customer (no company_name) as it is in the older version', () => {
    const rendered = eventInVersion(customerEvent(change('customer.deleted')), FIXTURE_OLD_VERSION, { versioning });
    expect(rendered.body.data).toEqual({ customer: { id: customer.id, seller_id: customer.seller_id }, sequence: 2 });
  });

  it('gives the latest to a pin that is unknown or past its sunset, as a seller pin does', () => {
    const event = customerEvent(change('customer.created'));
    expect(eventInVersion(event, '2020-01-01', { versioning }).version).toBe(LATEST_API_VERSION);
    const sunset = fixtureVersioning({ sunset: '2026-01-01' });
    const now = () => new Date('2026-11-26T12:00:00Z');
    expect(eventInVersion(event, FIXTURE_OLD_VERSION, { versioning: sunset, now }).body).toBe(event);
    const before = () => new Date('2025-12-31T23:59:59Z');
    expect(eventInVersion(event, FIXTURE_OLD_VERSION, { versioning: sunset, now: before }).version).toBe(FIXTURE_OLD_VERSION);
  });
});
