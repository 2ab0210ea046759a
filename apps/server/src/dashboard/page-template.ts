import type { DashboardAssets } from './assets.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * An HTML asset with its `{{name}}` placeholders replaced by the values, each HTML-escaped (seller names come from
 * operators and may hold markup); a placeholder without a value becomes empty.
 *
 * @example
 * fillTemplate(assets, 'login.html', { target_name: 'Acme <GmbH>' }); // …Acme &lt;GmbH&gt;…
 */
export function fillTemplate(assets: DashboardAssets, name: string, values: Record<string, string>): string {
  return assets
    .get(name)!
    .body.toString('utf8')
    .replace(/\{\{(\w+)\}\}/g, (_, key: string) => (values[key] ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!));
}
