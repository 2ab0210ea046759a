import { describe, expect, it } from 'vitest';
import { sendWebhook } from './send-webhook.js';

describe('sendWebhook without --allow-private-webhooks', () => {
  it('fails a name resolving only to non-public addresses: the seller sees no address, the log detail has them', async () => {
    const outcome = await sendWebhook({ url: 'http://localhost:9/hooks', body: '{}', headers: {}, timeoutMs: 10_000, allowPrivate: false });
    expect(outcome).toEqual({
      error: 'Resolves only to non-public addresses',
      detail: expect.stringMatching(/^localhost resolves to (127\.0\.0\.1|::1)/),
    });
  });
});
