import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isAcknowledged, isPublicAddress } from '@customers-api/core';
import type { AttemptOutcome } from './delivery-queue.js';
import { keptResponseHeaders } from './response-headers.js';
import { describeAttemptFailure, NOT_PUBLIC_ADDRESS, timedOutMessage } from './attempt-failure.js';
import { publicOnlyLookup, type PrivateAddressError } from './public-lookup.js';
import { resolveChecked, type WebhookAgents } from './webhook-agents.js';

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
  /** Keep-alive agents per origin and checked address (the worker's); a connection per attempt without. */
  agents?: WebhookAgents | undefined;
}

/** The `user-agent` of every delivery (shown with the request in the dashboard's delivery detail). */
export const USER_AGENT = 'customers-api-webhooks/1';

/** How much of a receiver's answer is kept with the attempt (the dashboard shows it): the first 2 KiB. */
export const RESPONSE_BODY_LIMIT = 2048;

/**
 * One delivery attempt: a JSON `POST` that must be answered within `timeoutMs`. Redirects are never followed
 * (a 3xx is the answer, and a failure); unless `allowPrivate`, the address actually connected to must be public,
 * whether the URL names it or DNS resolves to it. With `agents`, the address is looked up and checked once per
 * attempt and the request goes over a kept-alive socket to that very address (webhook-agents.ts). The first {@link RESPONSE_BODY_LIMIT} bytes of the answer's body
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
    let current: http.ClientRequest | undefined;
    let answered: (() => void) | undefined;
    // Covers the lookup, connecting, sending, the answer's headers and the kept part of its body (a receiver that
    // never ends its body costs no more time than one that never answers).
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (answered) return answered();
      if (current) current.destroy(new Error(timedOutMessage(request.timeoutMs)));
      else settle({ error: timedOutMessage(request.timeoutMs), timedOut: true });
    }, request.timeoutMs);
    const fail = (error: NodeJS.ErrnoException & Partial<Pick<PrivateAddressError, 'resolvedAddresses'>>) => {
      const message = timedOut ? error.message : describeAttemptFailure(error);
      // The raw error and what DNS answered go to the operator's log (`detail`), never to the seller.
      const addresses = error.resolvedAddresses;
      // A timeout is told apart: it held a delivery slot the whole time (delivery-fairness.ts).
      const raw = { detail: addresses ? `${target.hostname} resolves to ${addresses.join(', ')}` : error.message };
      settle(timedOut ? { error: message, timedOut: true } : { error: message, ...raw });
    };
    const send = (agent: http.Agent | false, retries: number) => {
      const outgoing = client.request(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'content-length': Buffer.byteLength(request.body),
          ...request.headers,
        },
        // Without the worker's agents, a connection of its own: the guard's lookup checks every attempt's address.
        agent,
        ...(agent === false && !request.allowPrivate ? { lookup: publicOnlyLookup } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
      current = outgoing;
      outgoing.on('response', (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        let ended = false;
        // Settles with what came of the body: all of it, its first 2 KiB, or what arrived before the timeout. A
        // body read to its end leaves the socket to its keep-alive agent; any other is closed with the response.
        answered = () => {
          settle({ status, acknowledged: isAcknowledged(status), body: Buffer.concat(chunks).toString('utf8'), headers: keptResponseHeaders(response.rawHeaders) });
          if (!ended) response.destroy();
        };
        response.on('error', () => answered?.());
        response.on('data', (chunk: Buffer) => {
          if (kept >= RESPONSE_BODY_LIMIT) return;
          chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - kept));
          kept += chunk.length;
          if (kept >= RESPONSE_BODY_LIMIT) answered?.();
        });
        response.on('end', () => {
          ended = true;
          answered?.();
        });
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (answered) return answered();
        // A kept-alive socket the receiver closed meanwhile: the request never reached it, send it on another.
        if (outgoing.reusedSocket && !timedOut && retries < STALE_SOCKET_RETRIES && STALE_SOCKET.has(error.code ?? '')) return send(agent, retries + 1);
        fail(error);
      });
      outgoing.end(request.body);
    };
    if (!request.agents) return send(false, 0);
    // The guard checks the address once, and the socket pool is the one kept for that address alone.
    resolveChecked(host, request.allowPrivate).then(
      (address) => {
        if (!settled) send(request.agents!.agentFor(target, address), 0);
      },
      (error: NodeJS.ErrnoException) => {
        if (!settled) fail(error);
      },
    );
  });
}

/** Errors of a reused keep-alive socket closed by the receiver before our request reached it. */
const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE']);
/** How many times such a request is sent again (on another pooled socket or a new one). */
const STALE_SOCKET_RETRIES = 2;
