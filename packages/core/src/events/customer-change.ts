import type {
  Customer,
  CustomerEvent,
  CustomerEventType,
  CustomerField,
} from '../types.js';
import { LATEST_API_VERSION } from '../versions/api-version.js';
import type { Mode } from '../tenancy/tenant.js';

/**
 * One change of a customer as a store records it in its outbox, in the same transaction as the change itself
 * (so an acknowledged change always has one, and a rejected request never does). Core turns it into the
 * event that is delivered ({@link customerEvent}).
 */
export interface CustomerChange {
  /** `evt_` and 32 lowercase hex digits; also the `webhook-id` of every delivery attempt. */
  eventId: string;
  type: CustomerEventType;
  sellerId: string;
  /** The tenant's mode: a change of test data is an event of test mode only (`livemode: false`). */
  mode: Mode;
  customerId: string;
  /** The customer's change number: 1 for its creation, one more for each later change (the delete included). */
  sequence: number;
  /** ISO 8601 UTC: the customer's `updated_at` for creates and updates, the time of the delete otherwise. */
  occurredAt: string;
  /** The customer after the change; for a delete, as it was. */
  customer: Customer;
  /** For an update: the customer before it. */
  previous?: Customer | undefined;
}

/** The event types, in openapi.yaml's order. */
export const CUSTOMER_EVENT_TYPES = [
  'customer.created',
  'customer.updated',
  'customer.deleted',
] as const satisfies readonly CustomerEventType[];

// Every type of the spec must be listed above: this fails to compile when openapi.yaml gains one.
type Missing = Exclude<CustomerEventType, (typeof CUSTOMER_EVENT_TYPES)[number]>;
const everyTypeListed: Missing extends never ? true : Missing = true;
void everyTypeListed;

/** The fields a change can touch, in the order of the customer's properties (as `changed_fields` lists them). */
export const CUSTOMER_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'company_name',
  'legal_entity',
  'language',
  'status',
  'address_data',
  'postal_redirect_address',
] as const satisfies readonly CustomerField[];

type MissingField = Exclude<CustomerField, (typeof CUSTOMER_FIELDS)[number]>;
const everyFieldListed: MissingField extends never ? true : MissingField = true;
void everyFieldListed;

const EVENT_ID = /^evt_[0-9a-f]{32}$/;

/**
 * A new event id: `evt_` and 32 random lowercase hex digits.
 *
 * @example
 * newEventId(); // "evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e"
 */
export function newEventId(): string {
  return `evt_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;
}

/** Whether `value` has the shape of an event id. */
export function isEventId(value: string): boolean {
  return EVENT_ID.test(value);
}

/**
 * The fields whose value differs between two states of a customer, in the customer's property order.
 * Addresses compare by content.
 *
 * @example
 * changedFields(ada, { ...ada, status: 'suspended' }); // ['status']
 */
export function changedFields(before: Customer, after: Customer): CustomerField[] {
  return CUSTOMER_FIELDS.filter((field) => !sameValue(before[field], after[field]));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (left[key] !== right[key]) return false;
  return true;
}

/**
 * The event of a recorded change in the latest version, exactly as openapi.yaml's `webhooks` describe it
 * (`eventInVersion` renders it in an endpoint's version).
 *
 * @example
 * const body = JSON.stringify(customerEvent(change));
 */
export function customerEvent(change: CustomerChange, apiVersion: string = LATEST_API_VERSION): CustomerEvent {
  const common = { id: change.eventId, livemode: change.mode !== 'test', api_version: apiVersion, created_at: change.occurredAt };
  switch (change.type) {
    case 'customer.created':
      return { ...common, type: change.type, data: { customer: change.customer, sequence: change.sequence } };
    case 'customer.updated':
      return {
        ...common,
        type: change.type,
        data: {
          customer: change.customer,
          changed_fields: change.previous ? changedFields(change.previous, change.customer) : [],
          sequence: change.sequence,
        },
      };
    case 'customer.deleted':
      return {
        ...common,
        type: change.type,
        data: {
          customer: { id: change.customerId, seller_id: change.sellerId },
          sequence: change.sequence,
        },
      };
  }
}
