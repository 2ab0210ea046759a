import { expect, it } from 'vitest';
import { AT_SIGNING, newSecret, SIGNED_AT, signedHeaders, UPDATED } from '../../test/helpers/webhooks';
import { WebhookVerificationError } from '../core/errors';
import { verifyWebhook } from './verify-webhook-lazy';

// One test on purpose: the checks module loads inside it (on first use), so its format rules (module-level
// patterns) are exercised by the same test that loads them.
it('loads the checks on first use, and they accept only whole timestamps and whole base64 secrets', async () => {
  const body = JSON.stringify(UPDATED);
  const secret = newSecret();
  const headers = signedHeaders(body, [secret]);
  const at = { now: AT_SIGNING };
  expect(await verifyWebhook(body, headers, secret, at)).toEqual(UPDATED);

  const reasonOf = (pending: Promise<unknown>) =>
    pending.then(
      () => 'verified',
      (e: unknown) => (e instanceof WebhookVerificationError ? e.reason : e),
    );
  for (const timestamp of [`-${SIGNED_AT}`, `x${SIGNED_AT}`, `${SIGNED_AT}.5`, `${SIGNED_AT}000000`]) {
    expect(await reasonOf(verifyWebhook(body, { ...headers, 'webhook-timestamp': timestamp }, secret, at)), timestamp).toBe('invalid_header');
  }
  // atob() skips whitespace: a secret broken by a space or a line break when copied must not pass as another key.
  const base64 = secret.slice('whsec_'.length);
  for (const broken of [`whsec_${base64.slice(0, 16)} ${base64.slice(16)}`, `whsec_${base64.slice(0, 16)}\n${base64.slice(16)}`, `whsec_!${base64}`]) {
    expect(await reasonOf(verifyWebhook(body, headers, broken, at)), broken).toBe('invalid_secret');
  }
});
