import { errors } from '@customers-api/core';
import { single, type Query } from './page-query.js';

export type DataMode = 'live' | 'test';

/**
 * The `mode` query parameter (openapi.dashboard.yaml, `DataMode`): which of the seller's data a route reads or
 * changes, `live` when absent; another value is core's 400 naming it.
 */
export function dataModeOf(query: Query): DataMode {
  const mode = single(query, 'mode');
  if (mode === undefined || mode === 'live') return 'live';
  if (mode === 'test') return 'test';
  throw errors.badRequest('mode must be one of live, test');
}
