// The dashboard's test/live switch lives in the page address (`?mode=test`), so a reload, a link or a bookmark keeps
// it, and every Settings page reads it the same way. Routes that read or change mode-scoped data take it as the
// `mode` query parameter (`DataMode` in openapi.dashboard.yaml).

import type { Schemas } from './api.js';

export type DataMode = Schemas['KeyMode'];

/** The mode the page shows: `test` only when the address says so, `live` otherwise. */
export function currentMode(search: string = window.location.search): DataMode {
  return new URLSearchParams(search).get('mode') === 'test' ? 'test' : 'live';
}

/** A dashboard link that keeps the page's mode (`/dashboard/settings/webhooks` → `…?mode=test` in test mode). */
export function withMode(href: string, mode: DataMode = currentMode()): string {
  if (mode === 'live') return href;
  const url = new URL(href, 'http://dashboard.invalid');
  url.searchParams.set('mode', 'test');
  return url.pathname + url.search + url.hash;
}

/** The `mode` query parameter for a dashboard API call: `{ mode }`, spread into `params.query`. */
export const modeQuery = (mode: DataMode = currentMode()) => ({ mode });
