import type { components } from '../generated/openapi';
import type { Customer } from '../resources/customer-types';

// Named types for the change events of `openapi.yaml` (`webhooks` and `CustomerEvent`). Interfaces over the
// generated schemas, like `Customer`, so hovers and compiler errors say `CustomerUpdatedEvent`; `data` is
// restated only to name `Customer` inside it (the type tests check they stay equal to the generated ones).
type Schemas = components['schemas'];
type CreatedSchema = Schemas['CustomerCreatedEvent'];
type UpdatedSchema = Schemas['CustomerUpdatedEvent'];
type DeletedSchema = Schemas['CustomerDeletedEvent'];
type DeletedCustomerSchema = Schemas['DeletedCustomer'];

/**
 * A customer property that a change can touch: `first_name`, `last_name`, `email`, `company_name`,
 * `legal_entity`, `language`, `status`, `address_data` or `postal_redirect_address`.
 */
export type CustomerField = Schemas['CustomerField'];

/** What is left of a deleted customer in `customer.deleted`: its id and its seller. */
export interface DeletedCustomer extends DeletedCustomerSchema {}

/**
 * `customer.created`: a customer was created. Sent once per acknowledged create (not for the replay of an
 * idempotent create); `data.sequence` is 1.
 */
export interface CustomerCreatedEvent extends CreatedSchema {
  /** The customer as created, and its change number (1). */
  data: {
    /** The customer as created. */
    customer: Customer;
    /** The customer's change number: 1 for its creation. */
    sequence: number;
  };
}

/**
 * `customer.updated`: a customer was updated (once per acknowledged `PATCH`). `data.customer` is its state after
 * the change, `data.changed_fields` the fields whose value changed. A `status` of `inactive` or `suspended` means
 * the customer must no longer be able to sign in to a portal that relies on this account.
 */
export interface CustomerUpdatedEvent extends UpdatedSchema {
  /** The customer after the change, the fields it changed, and its change number. */
  data: {
    /** The customer after the change. */
    customer: Customer;
    /**
     * The fields whose value this change altered, in the order of the customer's properties; empty when every
     * value sent was already stored.
     */
    changed_fields: CustomerField[];
    /**
     * The customer's change number: one more than the previous change's. Drop an event whose sequence is lower
     * than one already applied for the customer.
     */
    sequence: number;
  };
}

/** `customer.deleted`: a customer was deleted. `data.customer` is the id it had and its seller. */
export interface CustomerDeletedEvent extends DeletedSchema {
  /** The deleted customer's id and seller, and its change number. */
  data: {
    /** The id the deleted customer had, and the seller account that owned it. */
    customer: DeletedCustomer;
    /** The customer's change number: one more than the previous change's. */
    sequence: number;
  };
}

/**
 * Any change event, told apart by `type`: `{ id, type, created_at, data }`. Narrow on `type`:
 *
 * @example
 * switch (event.type) {
 *   case 'customer.created': await saveCustomer(event.data.customer); break;
 *   case 'customer.updated': if (event.data.changed_fields.includes('status')) await applyStatus(event.data.customer); break;
 *   case 'customer.deleted': await forgetCustomer(event.data.customer.id); break;
 * }
 */
export type CustomerEvent = CustomerCreatedEvent | CustomerUpdatedEvent | CustomerDeletedEvent;

/** `customer.created`, `customer.updated` or `customer.deleted`. */
export type CustomerEventType = CustomerEvent['type'];
