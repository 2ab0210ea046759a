import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isAcknowledged, isPublicAddress } from '@customers-api/core';
import type { AttemptOutcome } from './delivery-queue.js';
import { keptResponseHeaders } from './response-headers.js';
import { describeAttemptFailure, NOT_PUBLIC_ADDRESS, timedOutMessage } from './attempt-failure.js';
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

/** The `user-agent` of every delivery (shown with the request in the dashboard's delivery detail). */
export const USER_AGENT = 'customers-api-webhooks/1';

/** How much of a receiver's answer is kept with the attempt (the dashboard shows it): the first 2 KiB. */
export const RESPONSE_BODY_LIMIT = 2048;

/**
 * One delivery attempt: a JSON `POST` that must be answered within `timeoutMs`. Redirects are never followed
 * (a 3xx is the answer, and a failure); unless `allowPrivate`, the address actually connected to must be public,
 * whether the URL names it or DNS resolves to it. The first {@link RESPONSE_BODY_LIMIT} bytes of the answer's body
 * are kept (read within the same timeout; the rest is dropped unread). A failure is said in plain language
 * (attempt-failure.ts).
 *
 * @example
 * const outcome = await sendWebhook({ url, body, headers, timeoutMs: WEBHOOK_TIMEOUT_MS, allowPrivate: false });
 */
export function sendWebhook(request: WebhookRequest): Promise<AttemptOutcome> {
  const target = new URL(request.url);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!request.allowPrivate && isIP(host) && !isPublicAddress(host)) {
    return Promise.resolve({ error: NOT_PUBLIC_ADDRESS });
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
    // Covers connecting, sending, the answer's headers and the kept part of its body (a receiver that never ends
    // its body costs no more time than one that never answers).
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (answered) return answered();
      outgoing.destroy(new Error(timedOutMessage(request.timeoutMs)));
    }, request.timeoutMs);
    let answered: (() => void) | undefined;
    outgoing.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let kept = 0;
      // Settles with what came of the body: all of it, its first 2 KiB, or what arrived before the timeout.
      answered = () => {
        settle({ status, acknowledged: isAcknowledged(status), body: Buffer.concat(chunks).toString('utf8'), headers: keptResponseHeaders(response.rawHeaders) });
        response.destroy();
      };
      response.on('error', () => answered?.());
      response.on('data', (chunk: Buffer) => {
        if (kept >= RESPONSE_BODY_LIMIT) return;
        chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - kept));
        kept += chunk.length;
        if (kept >= RESPONSE_BODY_LIMIT) answered?.();
      });
      response.on('end', () => answered?.());
    });
    outgoing.on('error', (error: NodeJS.ErrnoException & Partial<Pick<PrivateAddressError, 'resolvedAddresses'>>) => {
      if (answered) return answered();
      const message = timedOut ? error.message : describeAttemptFailure(error);
      // The raw error and what DNS answered go to the operator's log (`detail`), never to the seller.
      const addresses = error.resolvedAddresses;
      // A timeout is told apart: it held a delivery slot the whole time (delivery-fairness.ts).
      const raw = { detail: addresses ? `${target.hostname} resolves to ${addresses.join(', ')}` : error.message };
      settle(timedOut ? { error: message, timedOut: true } : { error: message, ...raw });
    });
    outgoing.end(request.body);
  });
}
