import { describe, expect, it } from 'vitest';
import { sampleCustomer } from '../testing/store-contract.js';
import { changedFields, customerEvent, isEventId, newEventId, type CustomerChange } from './customer-change.js';

const seller = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
const ada = sampleCustomer(seller, {
  created_at: '2026-11-25T09:30:00.000Z',
  updated_at: '2026-11-25T09:30:00.000Z',
  address_data: { city: 'Berlin', country: 'DE' },
});
const change = (overrides: Partial<CustomerChange>): CustomerChange => ({
  eventId: 'evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e',
  type: 'customer.created',
  sellerId: seller,
  mode: 'live',
  customerId: ada.id,
  sequence: 1,
  occurredAt: ada.updated_at,
  customer: ada,
  ...overrides,
});

describe('event ids', () => {
  it('are evt_ and 32 hex digits, unique', () => {
    const ids = new Set(Array.from({ length: 100 }, newEventId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(isEventId(id)).toBe(true);
    expect(isEventId('evt_5B0F6C1E9A8D4F2B8C7E6D5A4B3C2D1E')).toBe(false);
    expect(isEventId('evt_123')).toBe(false);
    expect(isEventId('xevt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e')).toBe(false);
  });
});

describe('changedFields', () => {
  it('lists the fields whose value differs, in the customer’s property order', () => {
    const after = { ...ada, status: 'suspended' as const, first_name: 'Augusta', language: null, updated_at: 'later' };
    expect(changedFields(ada, after)).toEqual(['first_name', 'language', 'status']);
  });

  it('compares addresses by content, and sees a cleared or changed address', () => {
    expect(changedFields(ada, { ...ada, address_data: { country: 'DE', city: 'Berlin' } })).toEqual([]);
    expect(changedFields(ada, { ...ada, address_data: { city: 'Berlin' } })).toEqual(['address_data']);
    expect(changedFields(ada, { ...ada, address_data: null })).toEqual(['address_data']);
    expect(changedFields(ada, { ...ada, postal_redirect_address: { city: 'Hamburg' } })).toEqual([
      'postal_redirect_address',
    ]);
  });

  it('is empty when every value is the same', () => {
    expect(changedFields(ada, structuredClone(ada))).toEqual([]);
  });
});

describe('customerEvent', () => {
  it('builds customer.created with the customer and its sequence', () => {
    expect(customerEvent(change({}))).toEqual({
      id: 'evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e',
      livemode: true,
      type: 'customer.created',
      api_version: '2026-11-26',
      created_at: '2026-11-25T09:30:00.000Z',
      data: { customer: ada, sequence: 1 },
    });
  });

  it('builds customer.updated with the changed fields', () => {
    const suspended = { ...ada, status: 'suspended' as const, updated_at: '2026-11-25T10:15:42.120Z' };
    const event = customerEvent(
      change({ type: 'customer.updated', customer: suspended, previous: ada, sequence: 2, occurredAt: suspended.updated_at }),
    );
    expect(event).toEqual({
      id: 'evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e',
      livemode: true,
      type: 'customer.updated',
      api_version: '2026-11-26',
      created_at: '2026-11-25T10:15:42.120Z',
      data: { customer: suspended, changed_fields: ['status'], sequence: 2 },
    });
    expect(customerEvent(change({ type: 'customer.updated', sequence: 3 }))).toMatchObject({
      data: { changed_fields: [] },
    });
  });

  it('builds customer.deleted with only the id and the seller', () => {
    expect(customerEvent(change({ type: 'customer.deleted', sequence: 4, occurredAt: '2026-11-25T11:00:00.000Z' }))).toEqual({
      id: 'evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e',
      livemode: true,
      type: 'customer.deleted',
      api_version: '2026-11-26',
      created_at: '2026-11-25T11:00:00.000Z',
      data: { customer: { id: ada.id, seller_id: seller }, sequence: 4 },
    });
  });

  it('marks a change of test data livemode: false, customer and event alike', () => {
    const testAda = { ...ada, livemode: false };
    const event = customerEvent(change({ mode: 'test', customer: testAda }));
    expect(event.livemode).toBe(false);
    expect(event.type === 'customer.created' && event.data.customer.livemode).toBe(false);
  });
});
