import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { AT_SIGNING, EVENT_ID, newSecret, SIGNED_AT, signedHeaders, UPDATED } from '../../test/helpers/webhooks';
import { ConfigurationError } from '../core/errors';
import { signWebhook } from './sign-webhook';
import { verifyWebhook } from './verify-webhook';

const secret = newSecret();

describe('signWebhook', () => {
  it('signs an event so that verifyWebhook and the standardwebhooks package both accept it', async () => {
    const { headers, body } = await signWebhook(UPDATED, secret);
    expect(body).toBe(JSON.stringify(UPDATED));
    expect(headers['webhook-id']).toBe(UPDATED.id);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(await verifyWebhook(body, headers, secret)).toEqual(UPDATED);
    expect(new Webhook(secret).verify(body, headers)).toEqual(UPDATED);
    expect(await verifyWebhook(body, new Headers(headers), secret)).toEqual(UPDATED);
  });

  it('signs exactly as the API does, for a given time and id', async () => {
    const body = JSON.stringify(UPDATED);
    const signed = await signWebhook(body, secret, { timestamp: SIGNED_AT, id: EVENT_ID });
    const expected = signedHeaders(body, [secret]);
    expect(signed.headers).toEqual({ 'content-type': 'application/json', ...expected });
    expect((await signWebhook(body, secret, { timestamp: AT_SIGNING, id: EVENT_ID })).headers).toEqual(signed.headers);
    expect(await verifyWebhook(signed.body, signed.headers, secret, { now: AT_SIGNING })).toEqual(UPDATED);
  });

  it('gives a payload without an id a random msg_ id', async () => {
    const { headers } = await signWebhook({ type: 'customer.created', data: {} }, secret);
    expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  it('refuses a bad secret or timestamp with a ConfigurationError that never repeats the secret', async () => {
    await expect(signWebhook(UPDATED, 'not-a-secret-at-all')).rejects.toThrow(ConfigurationError);
    await expect(signWebhook(UPDATED, 'not-a-secret-at-all')).rejects.not.toThrow(/not-a-secret/);
    await expect(signWebhook(UPDATED, secret, { timestamp: new Date('nope') })).rejects.toThrow(/timestamp must be/);
    await expect(signWebhook(UPDATED, secret, { timestamp: 1.5 })).rejects.toThrow(ConfigurationError);
  });
});
