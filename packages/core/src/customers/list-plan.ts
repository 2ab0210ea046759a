import type { PageRequest } from '../store.js';
import { utcInstant } from '../validation/date-time.js';
import { parseListQuery } from '../validation/list-query.js';
import { readCursor } from './cursor.js';
import { emailKey } from './email.js';

/**
 * A list query parsed and validated, before the seller is known: the page size, the filters a cursor is bound to,
 * the store's page request (`limit + 1` rows: whether one more exists is `has_more`) and the scope the cursor was
 * made for, which must still be checked against `scopeOf(sellerId, filters)` before the page is answered.
 */
export interface ListPlan {
  limit: number;
  filters: Record<string, string | undefined>;
  page: PageRequest;
  /** The scope the query's cursor names (undefined without a cursor); unchecked. */
  cursorScope: string | undefined;
}

/**
 * Plans `GET /api/customers` from its raw query (without `?`): every 400 of the query, including a cursor that does
 * not parse; not the cursor's seller and filter check, which needs the seller.
 *
 * @example
 * const plan = planList('limit=20&status=active'); // plan.page.limit === 21
 */
export function planList(rawQuery: string): ListPlan {
  const { limit, cursor, email, status, created_after, created_before } = parseListQuery(rawQuery);
  const filters = { email: email && emailKey(email), status, created_after, created_before };
  const read = cursor === undefined ? undefined : readCursor(cursor);
  return {
    limit,
    filters,
    page: {
      limit: limit + 1,
      after: read?.position,
      emailKey: filters.email,
      status,
      // Instants, not their text: every store compares these UTC whole-millisecond strings with created_at.
      createdFrom: created_after && utcInstant(created_after),
      createdBefore: created_before && utcInstant(created_before),
    },
    cursorScope: read?.scope,
  };
}
