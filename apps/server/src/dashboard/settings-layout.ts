import type { Mode } from '@customers-api/core';
import type { DashboardAssets } from './assets.js';
import { fillTemplate } from './page-template.js';

/** A Settings page built on the shared layout: its nav entry, its content (an HTML fragment) and its script. */
export interface SettingsPage {
  /** Under /dashboard, e.g. `/settings/api-keys`. */
  path: string;
  /** The nav label, the breadcrumb and the page's heading. */
  title: string;
  /** The asset with what goes in `<main>` after the heading. */
  content: string;
  /** The page's module script (an asset). */
  script: string;
  /** A stylesheet of its own (an asset) beside dashboard.css. */
  stylesheet?: string;
  /** The Settings page it belongs to, for a page of one item (an endpoint): its nav entry and breadcrumb. */
  parent?: { path: string; title: string };
}

/** The Settings navigation, in order; every page built on the layout shows all of them. */
export const SETTINGS_NAV: readonly { path: string; title: string }[] = [
  { path: '/settings/api-keys', title: 'API Keys' },
  { path: '/settings/webhooks', title: 'Webhooks' },
  { path: '/settings/activity', title: 'Activity' },
  { path: '/settings/request-logs', title: 'Request logs' },
  { path: '/settings/events', title: 'Events' },
  { path: '/settings/customers', title: 'Customers' },
];

/**
 * A whole Settings page: layout.html (head with the page's own stylesheet if any, top bar with Sign out, the
 * Settings nav with this page (or its parent) current, breadcrumb, heading, the error box and the toast region) around the page's content fragment.
 * `mode` (the page address's `?mode=`) puts the test/live switch in its state, the "Viewing test data" banner on
 * test pages, and keeps the mode on every link. The fragment is
 * our own asset and goes in as it is; the title and paths are escaped like any template value.
 *
 * @example
 * settingsPage(assets, { path: '/settings/activity', title: 'Activity', content: 'activity.html', script: 'activity.js' });
 */
export function settingsPage(assets: DashboardAssets, page: SettingsPage, mode: Mode = 'live'): string {
  const section = page.parent ?? page;
  // Links keep the page's mode, as the scripts' withMode (apps/dashboard/src/mode.ts) does.
  const keep = mode === 'test' ? '?mode=test' : '';
  const nav = SETTINGS_NAV.map((entry) => {
    const current = entry.path === section.path ? ' aria-current="page"' : '';
    return `<li><a href="/dashboard${entry.path}${keep}"${current}>${escapeHtml(entry.title)}</a></li>`;
  }).join('');
  const title = escapeHtml(page.title);
  const breadcrumb = page.parent
    ? `<li><a href="/dashboard${page.parent.path}${keep}">${escapeHtml(page.parent.title)}</a></li><li><span aria-current="page">${title}</span></li>`
    : `<li><a href="/dashboard${page.path}${keep}" aria-current="page">${title}</a></li>`;
  const stylesheet = page.stylesheet ? `\n  <link rel="stylesheet" href="/dashboard/assets/${escapeHtml(page.stylesheet)}">` : '';
  return fillTemplate(assets, 'layout.html', { title: page.title, script: page.script, section: page.parent ? `${page.parent.title} · ` : '' })
    .replace('<!-- stylesheet -->', () => stylesheet)
    .replace('<!-- nav -->', () => nav)
    .replace('<!-- mode switch -->', () => modeSwitch(mode))
    .replace('<!-- mode banner -->', () => (mode === 'test' ? TEST_BANNER : ''))
    .replace('<!-- breadcrumb -->', () => breadcrumb)
    .replace('<!-- content -->', () => assets.get(page.content)!.body.toString('utf8'));
}

/**
 * The test/live switch in the top bar: a GET form, so it works before any script runs and keeps the page's path
 * (an endpoint's page stays on that endpoint's id) while `?mode=` changes; the scripts read it from the address.
 */
function modeSwitch(mode: Mode): string {
  const [shown, other, label] = mode === 'test' ? ['Test data', 'live', 'View live data'] : ['Live data', 'test', 'View test data'];
  return `<form class="mode-switch" method="get" aria-label="Test or live data"><span class="mode-now mode-now-${mode}" id="mode-now">${shown}</span>`
    + ` <button type="submit" name="mode" value="${other}" class="button" id="mode-switch">${label}</button></form>`;
}

/** Always there on a page showing test data, above everything else, so test data is never taken for live (a landmark of its own). */
const TEST_BANNER = `<section class="test-banner" id="test-banner" aria-label="Test mode"><p><strong>Viewing test data.</strong> What test keys (sk_test_, rk_test_) made; live customers, endpoints and events are not shown here.</p></section>`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
