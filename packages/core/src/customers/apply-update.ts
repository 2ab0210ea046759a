import type { Customer, CustomerUpdate } from '../types.js';
import { copyAddress } from './build-customer.js';

/**
 * The customer after a validated partial update: only properties present in `changes` change, `null`
 * clears, an address replaces the stored one whole, and `updated_at` is set. Server-assigned fields never
 * change. Stores call this so the merge rule exists once.
 *
 * @example
 * applyCustomerUpdate(customer, { status: 'suspended' }, now()).status; // "suspended"
 */
export function applyCustomerUpdate(
  customer: Customer,
  changes: CustomerUpdate,
  updatedAt: string,
): Customer {
  const has = (key: keyof CustomerUpdate) => Object.prototype.hasOwnProperty.call(changes, key);
  return {
    ...customer,
    first_name: changes.first_name ?? customer.first_name,
    last_name: changes.last_name ?? customer.last_name,
    email: changes.email ?? customer.email,
    company_name: has('company_name') ? (changes.company_name ?? null) : customer.company_name,
    legal_entity: has('legal_entity') ? (changes.legal_entity ?? null) : customer.legal_entity,
    language: has('language') ? (changes.language ?? null) : customer.language,
    status: changes.status ?? customer.status,
    address_data: has('address_data')
      ? copyAddress(changes.address_data)
      : copyAddress(customer.address_data),
    postal_redirect_address: has('postal_redirect_address')
      ? copyAddress(changes.postal_redirect_address)
      : copyAddress(customer.postal_redirect_address),
    updated_at: updatedAt,
  };
}
