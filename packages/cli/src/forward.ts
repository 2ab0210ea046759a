import type { CustomerEvent } from '@customers-api/sdk';
import { signWebhook } from '@customers-api/sdk/webhooks';

/** How long the local receiver has to answer one forwarded event. */
export const FORWARD_TIMEOUT_MS = 10_000;

/** What the local receiver answered: its status, or why there was no answer. */
export type ForwardResult = { ok: boolean; status: number } | { ok: false; error: string };

/**
 * POSTs one event to `url` as the API delivers it: the JSON body with the Standard Webhooks headers, signed with
 * the session's `whsec_` secret (the SDK's `verifyWebhook` accepts it). A 2xx is success, as for deliveries.
 *
 * @example
 * const result = await forwardEvent(event, 'http://localhost:4242/webhooks', secret);
 */
export async function forwardEvent(event: CustomerEvent, url: string, secret: string): Promise<ForwardResult> {
  const { headers, body } = await signWebhook(event, secret);
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
    await response.body?.cancel();
    return { ok: response.status >= 200 && response.status < 300, status: response.status };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : (cause?.code ?? cause?.message ?? (error as Error).message);
    return { ok: false, error: reason };
  }
}
