import type { DashboardAssets } from './assets.js';
import { fillTemplate } from './page-template.js';

/**
 * The page a browser without a session of another seller sees on opening a sign-in link: the account it signs in
 * to, by name and id, and a "Sign in as NAME" button whose form names that seller (`sign_in_as`). Nothing submits
 * it but a click, so a site that sends a browser to someone else's link cannot sign it in (sign-in CSRF).
 */
export function signInPage(assets: DashboardAssets, target: { id: string; name: string }): string {
  return fillTemplate(assets, 'login.html', { target_name: target.name, target_id: target.id });
}
