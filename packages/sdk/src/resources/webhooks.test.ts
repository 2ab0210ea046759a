import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEY } from '../../test/helpers/fixtures';
import { AT_SIGNING, newSecret, signedHeaders, UPDATED } from '../../test/helpers/webhooks';
import { CustomersClient } from '../client';
import { WebhookVerificationError } from '../core/errors';

const body = JSON.stringify(UPDATED);
const secret = newSecret();
const headers = signedHeaders(body, [secret]);
const at = { now: AT_SIGNING };

afterEach(() => vi.unstubAllEnvs());

describe('client.webhooks.verify', () => {
  it('verifies with the secret given to the call', async () => {
    const client = new CustomersClient({ apiKey: KEY });
    expect(await client.webhooks.verify(body, headers, secret, at)).toEqual(UPDATED);
  });

  it('uses the webhookSecret option (one or several) when the call gives none', async () => {
    expect(await new CustomersClient({ apiKey: KEY, webhookSecret: secret }).webhooks.verify(body, headers, undefined, at)).toEqual(UPDATED);
    const rotating = new CustomersClient({ apiKey: KEY, webhookSecret: [newSecret(), secret] });
    expect(await rotating.webhooks.verify(body, headers, undefined, at)).toEqual(UPDATED);
  });

  it('prefers the call secret to the option', async () => {
    const client = new CustomersClient({ apiKey: KEY, webhookSecret: secret });
    const error = await client.webhooks.verify(body, headers, newSecret(), at).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('no_matching_signature');
  });

  it('falls back to CUSTOMERS_API_WEBHOOK_SECRET, read at construction', async () => {
    vi.stubEnv('CUSTOMERS_API_WEBHOOK_SECRET', secret);
    const client = new CustomersClient({ apiKey: KEY });
    vi.stubEnv('CUSTOMERS_API_WEBHOOK_SECRET', newSecret());
    expect(await client.webhooks.verify(body, headers, undefined, at)).toEqual(UPDATED);
  });

  it('without any secret, refuses with a message that says where to put one', async () => {
    vi.stubEnv('CUSTOMERS_API_WEBHOOK_SECRET', '');
    const error = await new CustomersClient({ apiKey: KEY }).webhooks.verify(body, headers).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('invalid_secret');
    expect((error as Error).message).toContain("the client's webhookSecret option or CUSTOMERS_API_WEBHOOK_SECRET");
  });

  it('never shows the secret when the client is logged or serialized', () => {
    const client = new CustomersClient({ apiKey: KEY, webhookSecret: secret });
    const bare = secret.slice('whsec_'.length);
    expect(inspect(client, { depth: 10 })).not.toContain(bare);
    expect(JSON.stringify(client)).not.toContain(bare);
  });
});
