import { API_VERSIONS, LATEST_API_VERSION, type ApiVersion } from '../versions/api-version.js';
import { createApiVersioning, type ApiVersioning, type VersionChange } from '../versions/version-change.js';

/** A version older than every real one, known only to tests: it called `company_name` `company`. */
export const FIXTURE_OLD_VERSION = '2026-06-01';

/** Renames one property of an object, leaving everything else as it is (a copy; the input is never changed). */
function rename(value: unknown, from: string, to: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !(from in value)) return value;
  const { [from]: moved, ...rest } = value as Record<string, unknown>;
  return { ...rest, [to]: moved };
}

/** A customer, or a page of them, with `company_name` renamed `company` (or the reverse). */
function renameCustomers(body: unknown, from: string, to: string): unknown {
  if (typeof body === 'object' && body !== null && Array.isArray((body as { data?: unknown }).data)) {
    const page = body as { data: unknown[] };
    return { ...page, data: page.data.map((item) => rename(item, from, to)) };
  }
  return rename(body, from, to);
}

/**
 * The fixture's change: the latest version renamed `company` to `company_name`. Callers of
 * {@link FIXTURE_OLD_VERSION} send and get `company`, and error messages name `company`.
 */
export const FIXTURE_CHANGE: VersionChange = {
  version: LATEST_API_VERSION,
  description: 'The customer property `company` is renamed `company_name` (test fixture).',
  request: (body) => rename(body, 'company', 'company_name') as Record<string, unknown>,
  response: (body) => renameCustomers(body, 'company_name', 'company'),
  errorMessage: (message) => message.replace(/\bcompany_name\b/g, 'company'),
  // Events carry the customer in `data.customer` (a deleted one has no `company_name`: left as it is).
  event: (event) => {
    const data = event.data;
    if (typeof data !== 'object' || data === null || !('customer' in data)) return event;
    const { customer } = data as { customer: unknown };
    const changed = (data as { changed_fields?: unknown }).changed_fields;
    return {
      ...event,
      data: {
        ...data,
        customer: rename(customer, 'company_name', 'company'),
        ...(Array.isArray(changed) && { changed_fields: changed.map((field) => (field === 'company_name' ? 'company' : field)) }),
      },
    };
  },
};

/**
 * openapi.yaml's versions plus the fixture's older one, and the change between them: pass it to a host
 * (`createApiHandler`, `createMockApi`, `createCustomersMock`, `createMockServer`, the server's `buildApp`) to see
 * the version chain end to end. `old` adds a deprecation or sunset day to the fixture version.
 *
 * @example
 * const api = createMockApi({ versioning: fixtureVersioning() });
 */
export function fixtureVersioning(old: Partial<Pick<ApiVersion, 'deprecated' | 'sunset'>> = {}): ApiVersioning {
  const versions: ApiVersion[] = [
    ...API_VERSIONS,
    { version: FIXTURE_OLD_VERSION, summary: 'Test fixture: customers have `company`.', ...old },
  ];
  return createApiVersioning(versions, [FIXTURE_CHANGE]);
}
