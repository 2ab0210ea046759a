import { describe, expect, it } from 'vitest';
import { AT_SIGNING, EVENT_ID, newSecret, signBytes, SIGNED_AT, signedHeaders, UPDATED } from '../../test/helpers/webhooks';
import { ConfigurationError, CustomersApiError, WebhookVerificationError, type WebhookVerificationReason } from '../core/errors';
import { verifyWebhook as verifyStatic } from './verify-webhook';
import { verifyWebhook as verifyLazy } from './verify-webhook-lazy';

const body = JSON.stringify(UPDATED);
const secret = newSecret();
const headers = signedHeaders(body, [secret]);
const at = { now: AT_SIGNING };

/** The error a verification rejects with, checked to be a WebhookVerificationError with this reason. */
async function refusal(pending: Promise<unknown>, reason: WebhookVerificationReason): Promise<WebhookVerificationError> {
  const error = await pending.then(
    () => expect.unreachable('verified'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect(error).toBeInstanceOf(CustomersApiError);
  expect((error as WebhookVerificationError).name).toBe('WebhookVerificationError');
  expect((error as WebhookVerificationError).reason).toBe(reason);
  return error as WebhookVerificationError;
}

// The same checks through both doors: the standalone entry (`@customers-api/sdk/webhooks`) and the main entry,
// which loads the checks on first use.
describe.each([
  ['@customers-api/sdk/webhooks', verifyStatic],
  ['@customers-api/sdk (loaded on first use)', verifyLazy],
])('verifyWebhook of %s', (_, verifyWebhook) => {
  describe('accepts what the Standard Webhooks reference library signs', () => {
    it('returns the parsed event for a string body', async () => {
      expect(await verifyWebhook(body, headers, secret, at)).toEqual(UPDATED);
    });

    it('takes the body as a Uint8Array, a Node Buffer, an ArrayBuffer or a view into a larger buffer', async () => {
      const bytes = new TextEncoder().encode(body);
      const padded = new Uint8Array(bytes.byteLength + 8);
      padded.set(bytes, 4);
      for (const raw of [bytes, Buffer.from(body), bytes.buffer, padded.subarray(4, 4 + bytes.byteLength)]) {
        expect(await verifyWebhook(raw, headers, secret, at)).toEqual(UPDATED);
      }
    });

    it('verifies the exact bytes of a body with non-ASCII text', async () => {
      const event = { ...UPDATED, data: { ...UPDATED.data, customer: { ...UPDATED.data.customer, first_name: 'Zoë 😀' } } };
      const text = JSON.stringify(event);
      expect(await verifyWebhook(Buffer.from(text), signedHeaders(text, [secret]), secret, at)).toEqual(event);
    });

    it('reads headers from a Headers object, and from a plain object in any case', async () => {
      expect(await verifyWebhook(body, new Headers(headers), secret, at)).toEqual(UPDATED);
      const shouting = {
        'Webhook-Id': headers['webhook-id'],
        'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
        'Webhook-Signature': headers['webhook-signature'],
        'Content-Type': 'application/json',
      };
      expect(await verifyWebhook(body, shouting, secret, at)).toEqual(UPDATED);
    });

    it("reads Node's IncomingHttpHeaders shape: string[] values, and a repeated header joined with a comma", async () => {
      const other = newSecret();
      const both = signedHeaders(body, [secret, other])['webhook-signature'].split(' '); // the matching one before the comma
      expect(await verifyWebhook(body, { ...headers, 'webhook-signature': both }, secret, at)).toEqual(UPDATED);
      expect(await verifyWebhook(body, { ...headers, 'webhook-signature': both.join(', ') }, secret, at)).toEqual(UPDATED);
      expect(await verifyWebhook(body, { ...headers, 'webhook-id': [EVENT_ID] }, secret, at)).toEqual(UPDATED);
    });

    it('accepts a request with two signatures where only the second matches (a rotation)', async () => {
      const rotated = signedHeaders(body, [newSecret(), secret]);
      expect(rotated['webhook-signature'].split(' ')).toHaveLength(2);
      expect(await verifyWebhook(body, rotated, secret, at)).toEqual(UPDATED);
    });

    it('accepts several secrets, any of which may match', async () => {
      expect(await verifyWebhook(body, headers, [newSecret(), secret], at)).toEqual(UPDATED);
      expect(await verifyWebhook(body, headers, [secret, newSecret()], at)).toEqual(UPDATED);
    });

    it('skips signatures of other versions', async () => {
      const mixed = { ...headers, 'webhook-signature': `v1a,${'A'.repeat(86)}== ${headers['webhook-signature']}` };
      expect(await verifyWebhook(body, mixed, secret, at)).toEqual(UPDATED);
    });

    it('ignores spaces around the secret (a secret read from a file)', async () => {
      expect(await verifyWebhook(body, headers, `  ${secret}\n`, at)).toEqual(UPDATED);
    });
  });

  describe('refuses what was not signed with the secret', () => {
    it('a tampered body', async () => {
      const tampered = body.replace('"suspended"', '"active"');
      expect(tampered).not.toBe(body);
      const error = await refusal(verifyWebhook(tampered, headers, secret, at), 'no_matching_signature');
      expect(error.message).toMatch(/body was changed after signing .*raw bytes/);
    });

    it('one byte more: a body re-serialized after parsing', async () => {
      await refusal(verifyWebhook(JSON.stringify(UPDATED, null, 1), headers, secret, at), 'no_matching_signature');
      await refusal(verifyWebhook(`${body}\n`, headers, secret, at), 'no_matching_signature');
    });

    it('a wrong secret, or several wrong secrets', async () => {
      await refusal(verifyWebhook(body, headers, newSecret(), at), 'no_matching_signature');
      const error = await refusal(verifyWebhook(body, headers, [newSecret(), newSecret()], at), 'no_matching_signature');
      expect(error.message).toContain('the secrets given');
    });

    it('a changed webhook-id or webhook-timestamp (both are signed)', async () => {
      await refusal(verifyWebhook(body, { ...headers, 'webhook-id': 'evt_0'.padEnd(36, '0') }, secret, at), 'no_matching_signature');
      const later = { ...headers, 'webhook-timestamp': String(SIGNED_AT + 1) };
      await refusal(verifyWebhook(body, later, secret, at), 'no_matching_signature');
    });

    it('a signature that differs in its last character, or in its length', async () => {
      const signature = headers['webhook-signature'];
      const last = signature.at(-2) === 'A' ? 'B' : 'A'; // the character before the padding
      const changed = `${signature.slice(0, -2)}${last}=`;
      await refusal(verifyWebhook(body, { ...headers, 'webhook-signature': changed }, secret, at), 'no_matching_signature');
      const shorter = signature.slice(0, -1);
      await refusal(verifyWebhook(body, { ...headers, 'webhook-signature': shorter }, secret, at), 'no_matching_signature');
    });

    it('a webhook-signature without any v1 signature', async () => {
      for (const value of ['v2,abc', 'K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=', 'v1']) {
        const error = await refusal(verifyWebhook(body, { ...headers, 'webhook-signature': value }, secret, at), 'invalid_header');
        expect(error.message).toBe('webhook-signature holds no v1,<base64> signature.');
      }
    });
  });

  describe('refuses a timestamp more than the tolerance away from now', () => {
    const seconds = (s: number) => ({ now: new Date((SIGNED_AT + s) * 1000) });

    it('accepts exactly 5 minutes either way, and anything between', async () => {
      for (const offset of [-300, -1, 0, 1, 300, 300.999]) {
        expect(await verifyWebhook(body, headers, secret, seconds(offset))).toEqual(UPDATED);
      }
    });

    it('an old timestamp: 301 s and more', async () => {
      const error = await refusal(verifyWebhook(body, headers, secret, seconds(301)), 'timestamp_too_old');
      expect(error.message).toBe(
        "webhook-timestamp is 301 s old, more than the 300 s tolerance: a replayed or late request, or this machine's clock is wrong.",
      );
      await refusal(verifyWebhook(body, headers, secret, seconds(86_400)), 'timestamp_too_old');
    });

    it('a timestamp in the future: 301 s and more', async () => {
      const error = await refusal(verifyWebhook(body, headers, secret, seconds(-301)), 'timestamp_in_future');
      expect(error.message).toBe(
        "webhook-timestamp is 301 s in the future, more than the 300 s tolerance: check this machine's clock.",
      );
    });

    it('checks the time before the signature: an old request with a valid signature is a replay', async () => {
      await refusal(verifyWebhook('{"tampered":true}', headers, secret, seconds(400)), 'timestamp_too_old');
    });

    it('uses the current time by default', async () => {
      const fresh = signedHeaders(body, [secret], { timestamp: Math.floor(Date.now() / 1000) });
      expect(await verifyWebhook(body, fresh, secret)).toEqual(UPDATED);
      await refusal(verifyWebhook(body, headers, secret), 'timestamp_too_old'); // signed in 2026-11-26T09:00Z
    });

    it('takes another tolerance, in seconds', async () => {
      await refusal(verifyWebhook(body, headers, secret, { ...seconds(11), toleranceSeconds: 10 }), 'timestamp_too_old');
      expect(await verifyWebhook(body, headers, secret, { ...seconds(10), toleranceSeconds: 10 })).toEqual(UPDATED);
      await refusal(verifyWebhook(body, headers, secret, { ...seconds(1), toleranceSeconds: 0 }), 'timestamp_too_old');
    });

    it('refuses a tolerance that is not a finite number of at least 0 (ConfigurationError)', async () => {
      for (const toleranceSeconds of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
        const error = await verifyWebhook(body, headers, secret, { ...at, toleranceSeconds }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConfigurationError);
        expect((error as Error).message).toBe(`toleranceSeconds must be a finite number of at least 0, got ${toleranceSeconds}.`);
      }
    });

    it('a timestamp that is not whole seconds since the epoch', async () => {
      for (const value of ['abc', '1764147600.5', '-1764147600', '1764147600000000', '2026-11-26T09:00:00Z']) {
        const error = await refusal(verifyWebhook(body, { ...headers, 'webhook-timestamp': value }, secret, at), 'invalid_header');
        expect(error.message).toBe(`webhook-timestamp must be whole seconds since the Unix epoch, got "${value}".`);
      }
    });
  });

  describe('refuses requests without the headers', () => {
    it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const)('missing %s', async (name) => {
      const { [name]: _, ...rest } = headers;
      for (const without of [rest, new Headers(rest), { ...rest, [name]: '' }, { ...rest, [name]: [] }, { ...rest, [name]: undefined }]) {
        const error = await refusal(verifyWebhook(body, without, secret, at), 'missing_header');
        expect(error.message).toContain(`The ${name} header is missing`);
      }
    });

    it('a webhook-id or webhook-timestamp given twice', async () => {
      const twice = { ...headers, 'webhook-id': [EVENT_ID, EVENT_ID] };
      const error = await refusal(verifyWebhook(body, twice, secret, at), 'invalid_header');
      expect(error.message).toBe('The webhook-id header was sent 2 times; a webhook request has exactly one.');
    });

    it('no headers at all', async () => {
      await refusal(verifyWebhook(body, {}, secret, at), 'missing_header');
      await refusal(verifyWebhook(body, undefined as never, secret, at), 'missing_header');
    });
  });

  describe('refuses a secret that is not a whsec_ secret, without repeating it', () => {
    it('a secret without the whsec_ prefix', async () => {
      const bare = secret.slice('whsec_'.length);
      const error = await refusal(verifyWebhook(body, headers, bare, at), 'invalid_secret');
      expect(error.message).toBe(
        `A webhook secret starts with whsec_ (copy all of it, as shown when the endpoint was created or its secret rotated); got a value of ${bare.length} characters without it.`,
      );
      expect(error.message).not.toContain(bare);
    });

    it('whsec_ followed by something that is not base64', async () => {
      for (const bad of ['whsec_', 'whsec_not base64!', 'whsec_abcde', `whsec_${'a'.repeat(5)}===`]) {
        const error = await refusal(verifyWebhook(body, headers, bad, at), 'invalid_secret');
        expect(error.message).toBe('A webhook secret is whsec_ followed by base64, and this one is not: was it cut short or changed when copied?');
      }
    });

    it('no secret, an empty list, or a list with one bad secret', async () => {
      for (const none of [undefined, [], '']) {
        const error = await refusal(verifyWebhook(body, headers, none as never, at), 'invalid_secret');
        expect(error.message).toMatch(none === '' ? /starts with whsec_/ : /^No webhook secret was given/);
      }
      await refusal(verifyWebhook(body, headers, [secret, 'sk_live_oops'], at), 'invalid_secret');
      const error = await refusal(verifyWebhook(body, headers, [42] as never, at), 'invalid_secret');
      expect(error.message).toContain('got a number');
    });

    it('checks the secret before the request: a configuration problem shows on every request', async () => {
      await refusal(verifyWebhook('', {}, 'oops', at), 'invalid_secret');
    });
  });

  describe('refuses a body that is not a signed JSON event', () => {
    it('a signed body that is not JSON, not UTF-8, or not an event object', async () => {
      for (const raw of ['not json', '{"type":1}', 'null', '42', '"customer.created"']) {
        const error = await refusal(verifyWebhook(raw, signedHeaders(raw, [secret]), secret, at), 'invalid_body');
        expect(error.message).toMatch(/^The webhook body is correctly signed but is not (JSON in UTF-8|an event object with a type)\.$/);
      }
      const latin1 = Buffer.from('{"type":"customer.created","name":"Zo\xeb"}', 'latin1'); // not UTF-8
      const signed = { ...headers, 'webhook-signature': signBytes(secret, latin1) };
      const error = await refusal(verifyWebhook(latin1, signed, secret, at), 'invalid_body');
      expect(error.message).toBe('The webhook body is correctly signed but is not JSON in UTF-8.');
    });

    it('a body that was already parsed, with advice to verify first', async () => {
      for (const [parsed, got] of [
        [UPDATED, 'an object (already parsed?)'],
        [null, 'null'],
        [undefined, 'undefined'],
        [42, 'a number'],
      ] as const) {
        const error = await refusal(verifyWebhook(parsed as never, headers, secret, at), 'invalid_body');
        expect(error.message).toBe(
          `The webhook body must be the raw request body (a string, Uint8Array, Buffer or ArrayBuffer), got ${got}: verify before parsing JSON, which changes the bytes.`,
        );
      }
    });

    it('keeps the JSON error as the cause', async () => {
      const error = await refusal(verifyWebhook('{', signedHeaders('{', [secret]), secret, at), 'invalid_body');
      expect(error.cause).toBeInstanceOf(SyntaxError);
    });
  });
});
