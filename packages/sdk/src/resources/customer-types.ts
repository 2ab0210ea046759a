import type { components } from '../generated/openapi';

// Named types for the spec's schemas. Interfaces (not aliases of `components['schemas'][...]`) so that hovers
// and compiler errors say `Customer` or `CustomerCreate` instead of spelling the structure out.
type Schemas = components['schemas'];
// An interface can only extend a named type, hence one alias per schema.
type AddressSchema = Schemas['Address'];
type CustomerSchema = Schemas['Customer'];
type CustomerCreateSchema = Schemas['CustomerCreate'];
type CustomerUpdateSchema = Schemas['CustomerUpdate'];

/** `active`, `inactive` or `suspended`: whether the customer may log in to the customer portal. */
export type CustomerStatus = Schemas['Status'];

/** `en` or `de`: the customer's preferred language. */
export type CustomerLanguage = Schemas['Language'];

/** A postal address (`address_data`, `postal_redirect_address`); every property is optional. */
export interface Address extends AddressSchema {}

/**
 * A customer as the API returns it.
 *
 * @example
 * const customer: Customer = await client.customers.get(id);
 * console.log(customer.email, customer.address_data?.city ?? 'no address');
 */
export interface Customer extends CustomerSchema {
  /** The customer's address. Null when not provided. */
  address_data: Address | null;
  /** Address to which postal mail is forwarded. Null when not set. */
  postal_redirect_address: Address | null;
}

/** The body of a create: `first_name`, `last_name` and `email` are required. Unknown properties do not compile. */
export interface CustomerCreate extends CustomerCreateSchema {
  address_data?: Address | null;
  postal_redirect_address?: Address | null;
}

/** The properties a partial update may set; {@link CustomerUpdate} requires at least one of them. */
export interface CustomerUpdateFields extends CustomerUpdateSchema {
  address_data?: Address | null;
  postal_redirect_address?: Address | null;
}

/** `T` with at least one of its properties given (a value other than `undefined`). */
type AtLeastOne<T> = { [K in keyof T]-?: Required<Pick<T, K>> & Partial<T> }[keyof T];

/**
 * The body of a partial update: at least one property of {@link CustomerUpdateFields} (the server refuses `{}`
 * with 400, so `update(id, {})` does not compile); only the given properties change, `null` clears a nullable one.
 *
 * @example
 * const patch: CustomerUpdate = { status: 'suspended', company_name: null };
 * await client.customers.update(id, patch);
 */
export type CustomerUpdate = AtLeastOne<CustomerUpdateFields>;
