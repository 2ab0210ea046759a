import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, isWebhookSecret, signWebhook, webhookHeaders } from './webhook-signature.js';

const body = JSON.stringify({ id: 'evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e', type: 'customer.created', note: 'Zoë 😀' });
const id = 'evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e';

describe('webhook signatures (Standard Webhooks)', () => {
  it('makes secrets of 24 random bytes after whsec_, never the same twice', () => {
    const secrets = new Set(Array.from({ length: 50 }, generateWebhookSecret));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(atob(secret.slice(6))).toHaveLength(24);
      expect(isWebhookSecret(secret)).toBe(true);
    }
  });

  it('refuses what is not a whsec_ secret', async () => {
    for (const bad of ['', 'whsec_', 'sk_live_abc', 'whsec_not base64!', 'whsec_abc']) {
      expect(isWebhookSecret(bad)).toBe(false);
    }
    await expect(signWebhook('whsec_', { id, timestamp: 1, body })).rejects.toThrow(/whsec_/);
  });

  it('signs exactly as the standardwebhooks reference library does', async () => {
    const secret = generateWebhookSecret();
    const timestamp = 1_764_150_000;
    const ours = await signWebhook(secret, { id, timestamp, body });
    const reference = new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
    expect(ours).toBe(reference);
  });

  it('produces headers the reference library verifies, with either secret during a rotation', async () => {
    const [oldSecret, newSecret] = [generateWebhookSecret(), generateWebhookSecret()];
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = await webhookHeaders([newSecret, oldSecret], { id, timestamp, body });
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-timestamp']).toBe(String(timestamp));
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [oldSecret, newSecret]) {
      expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    }
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow();
    expect(() => new Webhook(newSecret).verify(`${body} `, { ...headers })).toThrow();
  });

  it('needs at least one secret', async () => {
    await expect(webhookHeaders([], { id, timestamp: 1, body })).rejects.toThrow(/at least one/);
  });
});
