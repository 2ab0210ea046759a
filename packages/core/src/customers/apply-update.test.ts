import { describe, expect, it } from 'vitest';
import type { Customer, CustomerUpdate } from '../types.js';
import { applyCustomerUpdate } from './apply-update.js';
import { buildCustomer } from './build-customer.js';

const before: Customer = buildCustomer(
  {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    company_name: 'Analytical Engines Ltd',
    legal_entity: 'Ltd',
    language: 'en',
    status: 'active',
    address_data: { street: '12 St James Square', city: 'London' },
    postal_redirect_address: { city: 'Ockham' },
  },
  { id: '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61', sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', createdAt: '2026-11-25T09:30:00.000Z' },
);
const LATER = '2026-11-25T10:00:00.000Z';

/** A new value for every updatable field, different from `before`. */
const values: Required<{ [K in keyof CustomerUpdate]: NonNullable<CustomerUpdate[K]> }> = {
  first_name: 'Augusta',
  last_name: 'King',
  email: 'augusta@example.com',
  company_name: 'Byron & Co',
  legal_entity: 'GmbH',
  language: 'de',
  status: 'suspended',
  address_data: { city: 'Paris' },
  postal_redirect_address: { street: '1 Rue de Rivoli', city: 'Paris' },
};
const nullable = ['company_name', 'legal_entity', 'language', 'address_data', 'postal_redirect_address'] as const;

describe('applyCustomerUpdate', () => {
  for (const [field, value] of Object.entries(values) as Array<[keyof CustomerUpdate, unknown]>) {
    it(`sets ${field} to a value and leaves every other field as it was`, () => {
      const after = applyCustomerUpdate(before, { [field]: value } as CustomerUpdate, LATER);
      expect(after).toEqual({ ...before, [field]: value, updated_at: LATER });
    });
  }

  for (const field of nullable) {
    it(`clears ${field} with null and leaves every other field as it was`, () => {
      const after = applyCustomerUpdate(before, { [field]: null } as CustomerUpdate, LATER);
      expect(after).toEqual({ ...before, [field]: null, updated_at: LATER });
    });
  }

  it('keeps every field when the update is empty, and only sets updated_at', () => {
    expect(applyCustomerUpdate(before, {}, LATER)).toEqual({ ...before, updated_at: LATER });
  });

  it('changes every field at once', () => {
    expect(applyCustomerUpdate(before, values, LATER)).toEqual({ ...before, ...values, updated_at: LATER });
  });

  it('copies addresses in and out, so neither the input nor the stored record can change the result', () => {
    const changes = { address_data: { city: 'Paris' } };
    const after = applyCustomerUpdate(before, changes, LATER);
    changes.address_data.city = 'Rome';
    expect(after.address_data).toEqual({ city: 'Paris' });
    expect(after.postal_redirect_address).not.toBe(before.postal_redirect_address);
    expect(after.postal_redirect_address).toEqual(before.postal_redirect_address);
  });
});
