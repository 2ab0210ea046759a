import { errors, type Mode, type Tenant } from '@customers-api/core';
import type { FastifyRequest } from 'fastify';

/**
 * The `mode` query parameter of a dashboard API route (`DataMode` in openapi.dashboard.yaml): which of the seller's
 * data the route reads or changes. Absent is `live`; anything but `live` or `test` (or a repeated one) is core's 400
 * naming it, so a mistyped mode never shows live data as if it were test data.
 *
 * @example
 * dataModeOf({ mode: 'test' }); // 'test'
 */
export function dataModeOf(query: unknown): Mode {
  const mode = (query as Record<string, unknown> | undefined)?.mode;
  if (mode === undefined) return 'live';
  if (mode !== 'live' && mode !== 'test') throw errors.badRequest('mode must be one of live, test', 'mode');
  return mode;
}

/** The query without `mode`, for a route whose own parser refuses parameters it does not know. */
export function withoutMode(query: unknown): Record<string, unknown> {
  const { mode: _mode, ...rest } = (query ?? {}) as Record<string, unknown>;
  return rest;
}

/** Whose data a dashboard request acts on: the session's seller, in the request's mode. */
export function sessionTenant(request: FastifyRequest): Tenant {
  return { sellerId: request.dashboardSession!.sellerId, mode: dataModeOf(request.query) };
}
