import { randomBytes } from 'node:crypto';

/**
 * A Standard Webhooks secret for one `listen` session: `whsec_` and the base64 of 32 random bytes, as the API's
 * endpoint secrets are. It lives only in the process and on the screen: a receiver verifies with it in development.
 *
 * @example
 * sessionSecret(); // 'whsec_3q2+7w...'
 */
export function sessionSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
