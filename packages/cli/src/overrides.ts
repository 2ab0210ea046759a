import type { CustomerCreate, CustomerUpdateFields } from '@customers-api/sdk';
import { UsageError } from './io.js';

// The fields each operation takes, checked against the SDK's types (generated from openapi.yaml): a field the
// spec adds or removes fails the typecheck here, so an override is never refused or let through by a stale list.
const CREATE_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'company_name',
  'legal_entity',
  'language',
  'status',
  'address_data',
  'postal_redirect_address',
] as const satisfies readonly (keyof CustomerCreate)[];
const UPDATE_FIELDS = CREATE_FIELDS satisfies readonly (keyof CustomerUpdateFields)[];
type Unlisted = Exclude<keyof CustomerCreate | keyof CustomerUpdateFields, (typeof CREATE_FIELDS)[number]>;
const everyFieldListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyFieldListed;

/** The operation an override goes to, and the fields it takes. */
export const OPERATION_FIELDS = {
  createCustomer: CREATE_FIELDS,
  updateCustomer: UPDATE_FIELDS,
} as const;

export type OverrideOperation = keyof typeof OPERATION_FIELDS;
type Json = string | null | { [key: string]: Json };

/**
 * The body the `--set FIELD=VALUE` arguments make: `a.b=c` sets a nested property, the value `null` sends null,
 * anything else is a string (the API checks the value). A field the operation does not take, a repeated field or
 * an argument without `=` is a {@link UsageError} naming it: an override is never ignored.
 *
 * @example
 * parseOverrides(['first_name=Ada', 'address_data.city=London'], 'createCustomer');
 * // { first_name: 'Ada', address_data: { city: 'London' } }
 */
export function parseOverrides(sets: readonly string[], operation: OverrideOperation): Record<string, Json> {
  const body: Record<string, Json> = {};
  const allowed: readonly string[] = OPERATION_FIELDS[operation];
  for (const set of sets) {
    const equals = set.indexOf('=');
    if (equals <= 0) throw new UsageError(`--set ${set}: expected FIELD=VALUE`);
    const path = set.slice(0, equals).split('.');
    const raw = set.slice(equals + 1);
    const field = path[0]!;
    if (!allowed.includes(field)) {
      throw new UsageError(`--set ${field}: ${operation} does not take the field ${field} (it takes ${allowed.join(', ')})`);
    }
    if (path.some((part) => part === '')) throw new UsageError(`--set ${set}: empty field name`);
    let target = body;
    for (const part of path.slice(0, -1)) {
      const next = target[part];
      if (next === undefined) target = target[part] = {};
      else if (typeof next === 'object' && next !== null) target = next;
      else throw new UsageError(`--set ${path.join('.')}: ${part} is already set to a value`);
    }
    const last = path.at(-1)!;
    if (last in target) throw new UsageError(`--set ${path.join('.')}: given twice`);
    target[last] = raw === 'null' ? null : raw;
  }
  return body;
}
