import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENT_ID, newSecret, SIGNED_AT, signedHeaders, UPDATED } from '../../test/helpers/webhooks';
import { ConfigurationError } from '../core/errors';
import { signWebhook } from './sign-webhook';

// signWebhook's options at their edges: which id wins, the timestamp forms and bounds, and what a refusal says.

const secret = newSecret();

afterEach(() => vi.restoreAllMocks());

describe('signWebhook options', () => {
  it('takes the id option over the event id, and a string payload gets a random msg_ id', async () => {
    expect((await signWebhook(UPDATED, secret, { id: 'msg_mine' })).headers['webhook-id']).toBe('msg_mine');
    const a = (await signWebhook(JSON.stringify(UPDATED), secret)).headers['webhook-id'];
    const b = (await signWebhook(JSON.stringify(UPDATED), secret)).headers['webhook-id'];
    expect(a).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(b).not.toBe(a);
  });

  it('gives a payload whose id is not a string a random msg_ id', async () => {
    const { headers, body } = await signWebhook({ id: 42, type: 'customer.created' }, secret);
    expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(body).toBe('{"id":42,"type":"customer.created"}');
  });

  it('signs a Date at its whole second (rounded down) and whole seconds as given', async () => {
    const body = JSON.stringify(UPDATED);
    const fromDate = await signWebhook(body, secret, { id: EVENT_ID, timestamp: new Date(SIGNED_AT * 1000 + 999) });
    expect(fromDate.headers['webhook-timestamp']).toBe(String(SIGNED_AT));
    expect(fromDate.headers['webhook-signature']).toBe(signedHeaders(body, [secret])['webhook-signature']);
    const fromSeconds = await signWebhook(body, secret, { id: EVENT_ID, timestamp: SIGNED_AT });
    expect(fromSeconds.headers).toEqual(fromDate.headers);
  });

  it('accepts the epoch itself and refuses a second before it, naming what it got', async () => {
    expect((await signWebhook(UPDATED, secret, { timestamp: 0 })).headers['webhook-timestamp']).toBe('0');
    const error = await signWebhook(UPDATED, secret, { timestamp: -1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toBe('timestamp must be a valid Date or whole seconds since the Unix epoch, got -1.');
    await expect(signWebhook(UPDATED, secret, { timestamp: Number.MAX_SAFE_INTEGER + 2 })).rejects.toThrow(ConfigurationError);
    await expect(signWebhook(UPDATED, secret, { timestamp: new Date(-1000) })).rejects.toThrow(/got /);
  });

  it('passes the secret refusal on as a ConfigurationError with its message', async () => {
    const error = await signWebhook(UPDATED, 'whsec_not base64!').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toBe('A webhook secret is whsec_ followed by base64, and this one is not: was it cut short or changed when copied?');
  });

  it('passes a failure that is not about the secret (WebCrypto refusing the key) on as it is', async () => {
    const failure = new Error('no WebCrypto here');
    vi.spyOn(globalThis.crypto.subtle, 'importKey').mockRejectedValue(failure);
    await expect(signWebhook(UPDATED, secret)).rejects.toBe(failure);
  });

  it('signs a null payload from plain JavaScript as the body null, with a random msg_ id', async () => {
    const { headers, body } = await signWebhook(null as never, secret);
    expect(body).toBe('null');
    expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
  });
});
