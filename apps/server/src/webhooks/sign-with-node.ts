import { createHmac } from 'node:crypto';
import { signedWebhookText, webhookSecretBytes, webhookSignature, type SignedContent } from '@customers-api/core';

/**
 * Core's webhook signature (HMAC-SHA256 over core's signed text, core's `v1,` form) with node:crypto: synchronous,
 * no key import per attempt. Core's own signer stays Web Crypto so it runs in browsers (MSW); the bytes are the
 * same (sign-with-node.test.ts). Pass it to core's webhookHeaders.
 *
 * @example
 * const headers = await webhookHeaders(secrets, { id, timestamp, body }, signWithNode);
 */
export function signWithNode(secret: string, content: SignedContent): string {
  const mac = createHmac('sha256', webhookSecretBytes(secret)).update(signedWebhookText(content), 'utf8').digest();
  return webhookSignature(mac);
}
