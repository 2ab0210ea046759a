import type { DashboardAssets } from './assets.js';
import { fillTemplate } from './page-template.js';
import type { SessionEnd } from './sessions.js';

/** Why the visitor sees the signed-out page: the session's end, or a sign-out they asked for. */
export type SignedOutReason = SessionEnd | 'signed-out';

/** The sentence saying why, in the words of the real session rules (sessions.ts). */
const REASONS: Record<SignedOutReason, string> = {
  none: 'The dashboard opens with a one-time sign-in link.',
  'signed-out': 'You signed out.',
  idle: 'Your session ended after 30 minutes without activity.',
  limit: 'Your session ended: a session lasts at most 12 hours from sign-in.',
  ended: 'Your session has ended: you signed out in another tab, or it timed out.',
};

/**
 * The page a browser without a live session gets for a dashboard page: why (see {@link REASONS}), how to sign in
 * again (a new link from whoever runs the service; no operator command), and the page it returns to afterwards.
 */
export function signedOutPage(assets: DashboardAssets, reason: SignedOutReason, returnTo: string | undefined): string {
  return fillTemplate(assets, 'signed-out.html', {
    reason: REASONS[reason],
    return_to: returnTo ?? '',
    return_hidden: returnTo === undefined ? 'hidden' : '',
  });
}
