import type { DashboardAssets } from './assets.js';
import { fillTemplate } from './page-template.js';

export interface AccountSwitch {
  current: { id: string; name: string };
  target: { id: string; name: string };
}

/**
 * The page a signed-in seller sees on opening a sign-in link of another seller: both accounts by name and id,
 * and a form that switches only when submitted by hand (no page script submits it). Every value is HTML-escaped.
 */
export function switchAccountPage(assets: DashboardAssets, { current, target }: AccountSwitch): string {
  return fillTemplate(assets, 'switch-account.html', {
    current_name: current.name,
    current_id: current.id,
    target_name: target.name,
    target_id: target.id,
  });
}
