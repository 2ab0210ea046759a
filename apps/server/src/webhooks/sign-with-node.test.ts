import { randomBytes } from 'node:crypto';
import { generateWebhookSecret, signWebhook, webhookHeaders } from '@customers-api/core';
import { describe, expect, it } from 'vitest';
import { signWithNode } from './sign-with-node.js';

const contents = [
  { id: 'evt_1', timestamp: 1764150000, body: '{}' },
  { id: 'evt_unicode', timestamp: 0, body: JSON.stringify({ name: 'Zoë Ångström 漢字 🚀', note: 'a\u0000b\u2028c' }) },
  { id: 'evt_big', timestamp: 2_000_000_000, body: JSON.stringify({ data: randomBytes(6000).toString('base64') }) },
  { id: '', timestamp: 1, body: '' },
];

describe('signWithNode', () => {
  it("gives core's Web Crypto signature byte for byte, for any secret and content", async () => {
    for (let i = 0; i < 20; i++) {
      const secret = generateWebhookSecret();
      for (const content of contents) expect(signWithNode(secret, content)).toBe(await signWebhook(secret, content));
    }
    // Secrets whose base64 ends in padding (key lengths other than core's 24 bytes).
    for (const length of [1, 2, 16, 31, 64]) {
      const secret = `whsec_${randomBytes(length).toString('base64')}`;
      expect(signWithNode(secret, contents[0]!)).toBe(await signWebhook(secret, contents[0]!));
    }
  });

  it("signs a rotation's two secrets as core does: the same headers, both signatures in order", async () => {
    const secrets = [generateWebhookSecret(), generateWebhookSecret()];
    const content = contents[1]!;
    const node = await webhookHeaders(secrets, content, signWithNode);
    expect(node).toEqual(await webhookHeaders(secrets, content));
    expect(node['webhook-signature'].split(' ')).toEqual([await signWebhook(secrets[0]!, content), await signWebhook(secrets[1]!, content)]);
  });

  it('refuses what is not a whsec_ secret, as core does', async () => {
    expect(() => signWithNode('not-a-secret', contents[0]!)).toThrow(TypeError);
    await expect(signWebhook('not-a-secret', contents[0]!)).rejects.toThrow(TypeError);
  });
});
