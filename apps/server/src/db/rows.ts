import type { Selectable } from 'kysely';
import { emailKey, type Customer } from '@customers-api/core';
import type { CustomersTable } from './schema.js';

/** A timestamp column as ISO 8601 UTC, whether the driver returned a Date (PostgreSQL) or text (SQLite). */
export function toIso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : value;
}

export function toIsoOrNull(value: Date | string | null): string | null {
  return value === null ? null : toIso(value);
}

/** A JSON column as a value, whether the driver parsed it (PostgreSQL jsonb) or returned text (SQLite). */
export function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

export function toJson(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** A customers row as either driver returns it: the table's select types (see schema.ts). */
export type CustomerRow = Selectable<CustomersTable>;

/** The customers table's columns, in schema order: for column lists written as SQL text (RETURNING, snapshots). */
export const CUSTOMER_COLUMNS = [
  'id',
  'seller_id',
  'first_name',
  'last_name',
  'email',
  'email_normalized',
  'company_name',
  'legal_entity',
  'language',
  'status',
  'address_data',
  'postal_redirect_address',
  'source',
  'created_at',
  'updated_at',
  'mode',
] as const satisfies readonly (keyof CustomerRow)[];

// Every column must be listed: this fails to compile when schema.ts gains one. `event_sequence` is the outbox's
// change counter, not part of a customer (see db/outbox-triggers.ts).
type UnlistedColumn = Exclude<keyof CustomerRow, (typeof CUSTOMER_COLUMNS)[number] | 'event_sequence'>;
const everyColumnListed: UnlistedColumn extends never ? true : UnlistedColumn = true;
void everyColumnListed;

export function customerFromRow(row: CustomerRow): Customer {
  return {
    id: row.id,
    seller_id: row.seller_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    company_name: row.company_name,
    legal_entity: row.legal_entity,
    language: row.language as Customer['language'],
    status: row.status as Customer['status'],
    address_data: fromJson<Customer['address_data']>(row.address_data),
    postal_redirect_address: fromJson<Customer['postal_redirect_address']>(row.postal_redirect_address),
    source: row.source as Customer['source'],
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    // Snapshots in the outbox from before migration 020 have no mode: they were live.
    livemode: row.mode !== 'test',
  };
}

export function customerToRow(customer: Customer) {
  return {
    id: customer.id,
    seller_id: customer.seller_id,
    first_name: customer.first_name,
    last_name: customer.last_name,
    email: customer.email,
    email_normalized: emailKey(customer.email),
    company_name: customer.company_name ?? null,
    legal_entity: customer.legal_entity ?? null,
    language: customer.language ?? null,
    status: customer.status,
    address_data: toJson(customer.address_data),
    postal_redirect_address: toJson(customer.postal_redirect_address),
    source: customer.source,
    created_at: customer.created_at,
    updated_at: customer.updated_at,
    mode: customer.livemode === false ? 'test' : 'live',
  };
}
