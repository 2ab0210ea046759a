import { describe, expect, it } from 'vitest';
import { AT_SIGNING, newSecret, SIGNED_AT, signedHeaders, UPDATED } from '../../test/helpers/webhooks';
import { WebhookVerificationError, type WebhookVerificationReason } from '../core/errors';
import { checkWebhook } from './check-webhook';
import { verifyWebhook } from './verify-webhook';

const body = JSON.stringify(UPDATED);
const secret = newSecret();
const headers = signedHeaders(body, [secret]);
const at = { now: AT_SIGNING };

async function refusal(pending: Promise<unknown>, reason: WebhookVerificationReason): Promise<WebhookVerificationError> {
  const error = await pending.then(
    () => expect.unreachable('verified'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect((error as WebhookVerificationError).reason).toBe(reason);
  return error as WebhookVerificationError;
}

describe('verifyWebhook, what its refusals say', () => {
  it('names "the secret" when one was given, "the secrets" when several were', async () => {
    const advice =
      'given: the body was changed after signing (verify the raw bytes before any JSON parsing), or the secret is not this endpoint\'s.';
    const one = await refusal(verifyWebhook(body, headers, newSecret(), at), 'no_matching_signature');
    expect(one.message).toBe(`No signature in webhook-signature matches this body with the secret ${advice}`);
    const two = await refusal(verifyWebhook(body, headers, [newSecret(), newSecret()], at), 'no_matching_signature');
    expect(two.message).toBe(`No signature in webhook-signature matches this body with the secrets ${advice}`);
  });

  it('quotes at most 32 characters of a malformed webhook-timestamp (the header is the sender\'s text)', async () => {
    const long = `${SIGNED_AT}`.padEnd(100, 'x');
    const error = await refusal(verifyWebhook(body, { ...headers, 'webhook-timestamp': long }, secret, at), 'invalid_header');
    expect(error.message).toBe(`webhook-timestamp must be whole seconds since the Unix epoch, got "${long.slice(0, 32)}".`);
  });

  it('keeps why a secret is not base64 as the cause', async () => {
    const error = await refusal(verifyWebhook(body, headers, 'whsec_not base64!', at), 'invalid_secret');
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect((error.cause as SyntaxError).message).toBe('not base64');
  });
});

describe('verifyWebhook, signatures compared in full', () => {
  it('refuses the right signature with characters appended', async () => {
    const signature = headers['webhook-signature'];
    for (const extra of ['A', 'AAAA', '==']) {
      await refusal(verifyWebhook(body, { ...headers, 'webhook-signature': `${signature}${extra}` }, secret, at), 'no_matching_signature');
    }
  });
});

describe('verifyWebhook, header values', () => {
  it('trims spaces around values, as a plain object from a framework may keep them', async () => {
    const padded = {
      'webhook-id': ` ${headers['webhook-id']} `,
      'webhook-timestamp': ` ${headers['webhook-timestamp']}\t`,
      'webhook-signature': `  ${headers['webhook-signature']} `,
    };
    expect(await verifyWebhook(body, padded, secret, at)).toEqual(UPDATED);
  });

  it('treats a header of only spaces as missing', async () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const error = await refusal(verifyWebhook(body, { ...headers, [name]: '   ' }, secret, at), 'missing_header');
      expect(error.message).toContain(`The ${name} header is missing`);
    }
  });

  it('refuses null headers as missing, not with a TypeError', async () => {
    await refusal(verifyWebhook(body, null as never, secret, at), 'missing_header');
  });
});

describe('checkWebhook', () => {
  it('answers refusals as values, and lets any other error through unchanged', async () => {
    expect(await checkWebhook(body, headers, newSecret(), at)).toMatchObject({ ok: false, reason: 'no_matching_signature' });
    const broken = new Error('headers object is broken');
    const throwing = {
      get(): string | null {
        throw broken;
      },
    };
    await expect(checkWebhook(body, throwing, secret, at)).rejects.toBe(broken);
    await expect(verifyWebhook(body, throwing, secret, at)).rejects.toBe(broken);
  });
});
