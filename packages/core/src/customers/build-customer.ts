import type { Mode } from '../tenancy/tenant.js';
import type { Address, Customer, CustomerCreate } from '../types.js';

/** A copy, so a caller mutating its input or a stored record cannot reach the other. */
export function copyAddress(address: Address | null | undefined): Address | null {
  return address ? { ...address } : null;
}

export interface NewCustomerFields {
  id: string;
  sellerId: string;
  /** The mode of the key that creates it; live when omitted. */
  mode?: Mode;
  createdAt: string;
}

/**
 * The full customer for a validated create body: the spec's defaults (`language` `de` when omitted, an
 * explicit null kept; `status` `active`), absent optional fields as null, `source` `api`, and
 * `updated_at` equal to `created_at`. Properties come in the order of the `Customer` schema.
 *
 * @example
 * buildCustomer({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
 *   { id, sellerId, createdAt: '2026-11-25T09:30:00.000Z' }).language; // "de"
 */
export function buildCustomer(input: CustomerCreate, fields: NewCustomerFields): Customer {
  return {
    id: fields.id,
    seller_id: fields.sellerId,
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email,
    company_name: input.company_name ?? null,
    legal_entity: input.legal_entity ?? null,
    language: input.language === undefined ? 'de' : input.language,
    status: input.status ?? 'active',
    address_data: copyAddress(input.address_data),
    postal_redirect_address: copyAddress(input.postal_redirect_address),
    source: 'api',
    created_at: fields.createdAt,
    updated_at: fields.createdAt,
    livemode: fields.mode !== 'test',
  };
}
