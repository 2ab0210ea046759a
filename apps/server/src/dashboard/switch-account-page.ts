import type { DashboardAssets } from './assets.js';

export interface AccountSwitch {
  current: { id: string; name: string };
  target: { id: string; name: string };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The page a signed-in seller sees on opening a sign-in link of another seller: both accounts by name and id,
 * and a form that switches only when submitted by hand (it has no script; the sign-in page's auto-submit posts
 * no `switch_to`). Names come from operators, so every value is HTML-escaped.
 */
export function switchAccountPage(assets: DashboardAssets, { current, target }: AccountSwitch): string {
  const values: Record<string, string> = {
    current_name: current.name,
    current_id: current.id,
    target_name: target.name,
    target_id: target.id,
  };
  return assets
    .get('switch-account.html')!
    .body.toString('utf8')
    .replace(/\{\{(\w+)\}\}/g, (_, name: string) => (values[name] ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!));
}
