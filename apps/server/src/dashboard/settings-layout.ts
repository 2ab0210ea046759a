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
}

/** The Settings navigation, in order; every page built on the layout shows all of them. */
export const SETTINGS_NAV: readonly { path: string; title: string }[] = [
  { path: '/settings/api-keys', title: 'API Keys' },
  { path: '/settings/webhooks', title: 'Webhooks' },
  { path: '/settings/activity', title: 'Activity' },
];

/**
 * A whole Settings page: layout.html (head, top bar with Sign out, the Settings nav with this page current,
 * breadcrumb, heading, the error box and the toast region) around the page's content fragment. The fragment is
 * our own asset and goes in as it is; the title and paths are escaped like any template value.
 *
 * @example
 * settingsPage(assets, { path: '/settings/activity', title: 'Activity', content: 'activity.html', script: 'activity.js' });
 */
export function settingsPage(assets: DashboardAssets, page: SettingsPage): string {
  const nav = SETTINGS_NAV.map((entry) => {
    const current = entry.path === page.path ? ' aria-current="page"' : '';
    return `<li><a href="/dashboard${entry.path}"${current}>${escapeHtml(entry.title)}</a></li>`;
  }).join('');
  return fillTemplate(assets, 'layout.html', { title: page.title, script: page.script, path: `/dashboard${page.path}` })
    .replace('<!-- nav -->', () => nav)
    .replace('<!-- content -->', () => assets.get(page.content)!.body.toString('utf8'));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
