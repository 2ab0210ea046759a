import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isAcknowledged, isPublicAddress } from '@customers-api/core';
import type { AttemptOutcome } from './delivery-queue.js';
import { publicOnlyLookup, type PrivateAddressError } from './public-lookup.js';

export interface WebhookRequest {
  url: string;
  body: string;
  /** The signed `webhook-*` headers. */
  headers: Record<string, string>;
  timeoutMs: number;
  /** Loopback and private addresses too (`--allow-private-webhooks`). */
  allowPrivate: boolean;
  /** Aborts the attempt (the server is stopping). */
  signal?: AbortSignal;
}

const USER_AGENT = 'customers-api-webhooks/1';

/**
 * One delivery attempt: a JSON `POST` that must be answered within `timeoutMs`. Redirects are never followed
 * (a 3xx is the answer, and a failure); unless `allowPrivate`, the address actually connected to must be public,
 * whether the URL names it or DNS resolves to it. The response body is drained and dropped, never kept.
 *
 * @example
 * const outcome = await sendWebhook({ url, body, headers, timeoutMs: WEBHOOK_TIMEOUT_MS, allowPrivate: false });
 */
export function sendWebhook(request: WebhookRequest): Promise<AttemptOutcome> {
  const target = new URL(request.url);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!request.allowPrivate && isIP(host) && !isPublicAddress(host)) {
    return Promise.resolve({ error: `refused: ${host} is not a public address` });
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const outgoing = client.request(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'content-length': Buffer.byteLength(request.body),
        ...request.headers,
      },
      // A connection of its own per attempt: a pooled socket would skip the address check of a new lookup.
      agent: false,
      ...(request.allowPrivate ? {} : { lookup: publicOnlyLookup }),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    // Covers connecting, sending and the answer's headers; the body is not waited for.
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      outgoing.destroy(new Error(`no answer within ${request.timeoutMs} ms`));
    }, request.timeoutMs);
    outgoing.on('response', (response) => {
      const status = response.statusCode ?? 0;
      settle({ status, acknowledged: isAcknowledged(status) });
      // Drop the body without reading it into memory, and do not wait for a receiver that never ends it.
      response.on('error', () => {});
      response.destroy();
    });
    outgoing.on('error', (error: NodeJS.ErrnoException & Partial<Pick<PrivateAddressError, 'resolvedAddresses'>>) => {
      const message = error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message;
      // What DNS answered goes to the operator's log (`detail`), never into the error the seller sees.
      const addresses = error.resolvedAddresses;
      const detail = addresses ? { detail: `${target.hostname} resolves to ${addresses.join(', ')}` } : {};
      // A timeout is told apart: it held a delivery slot the whole time (delivery-fairness.ts).
      settle(timedOut ? { error: message, timedOut: true, ...detail } : { error: message, ...detail });
    });
    outgoing.end(request.body);
  });
}
