import { describe, expect, it } from 'vitest';
import { AT_SIGNING, newSecret, SIGNED_AT, signedHeaders, UPDATED } from '../../test/helpers/webhooks';
import { checkWebhook } from './check-webhook';
import { verifyWebhook } from './verify-webhook';

const body = JSON.stringify(UPDATED);
const secret = newSecret();
const headers = signedHeaders(body, [secret]);
const at = { now: AT_SIGNING };

describe('what a refusal says', () => {
  it('names "the secret" when one was given, "the secrets" when several were', async () => {
    const advice =
      "given: the body was changed after signing (verify the raw bytes before any JSON parsing), or the secret is not this endpoint's.";
    expect(await checkWebhook(body, headers, newSecret(), at)).toMatchObject({
      ok: false,
      reason: 'no_matching_signature',
      message: `No signature in webhook-signature matches this body with the secret ${advice}`,
    });
    expect(await checkWebhook(body, headers, [newSecret(), newSecret()], at)).toMatchObject({
      ok: false,
      reason: 'no_matching_signature',
      message: `No signature in webhook-signature matches this body with the secrets ${advice}`,
    });
  });

  it("quotes at most 32 characters of a malformed webhook-timestamp (the header is the sender's text)", async () => {
    const long = `${SIGNED_AT}`.padEnd(100, 'x');
    expect(await checkWebhook(body, { ...headers, 'webhook-timestamp': long }, secret, at)).toMatchObject({
      ok: false,
      reason: 'invalid_header',
      message: `webhook-timestamp must be whole seconds since the Unix epoch, got "${long.slice(0, 32)}".`,
    });
  });

  it('keeps why a secret is not base64 as the cause', async () => {
    const check = await checkWebhook(body, headers, 'whsec_not base64!', at);
    expect(check).toMatchObject({ ok: false, reason: 'invalid_secret' });
    const cause = check.ok ? undefined : check.cause;
    expect(cause).toBeInstanceOf(SyntaxError);
    expect((cause as SyntaxError).message).toBe('not base64');
  });
});

describe('signatures are compared in full', () => {
  it('refuses the right signature with characters appended', async () => {
    const signature = headers['webhook-signature'];
    for (const extra of ['A', 'AAAA', '==']) {
      const check = await checkWebhook(body, { ...headers, 'webhook-signature': `${signature}${extra}` }, secret, at);
      expect(check, extra).toMatchObject({ ok: false, reason: 'no_matching_signature' });
    }
  });
});

describe('header values', () => {
  it('are trimmed, as a plain object from a framework may keep spaces around them', async () => {
    const padded = {
      'webhook-id': ` ${headers['webhook-id']} `,
      'webhook-timestamp': ` ${headers['webhook-timestamp']}\t`,
      'webhook-signature': `  ${headers['webhook-signature']} `,
    };
    expect(await checkWebhook(body, padded, secret, at)).toEqual({ ok: true, event: UPDATED });
  });

  it('are missing when only spaces', async () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const check = await checkWebhook(body, { ...headers, [name]: '   ' }, secret, at);
      expect(check, name).toMatchObject({ ok: false, reason: 'missing_header' });
      expect(check.ok ? '' : check.message).toContain(`The ${name} header is missing`);
    }
  });

  it('are missing, not a TypeError, when the headers are null', async () => {
    expect(await checkWebhook(body, null as never, secret, at)).toMatchObject({ ok: false, reason: 'missing_header' });
  });
});

describe('errors that are no refusal', () => {
  it('pass through unchanged (a broken headers object is a bug to see, not a bad request)', async () => {
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
