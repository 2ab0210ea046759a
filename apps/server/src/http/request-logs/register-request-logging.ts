import type { FastifyInstance } from 'fastify';
import { API_VERSION_HEADER, type SellerContext } from '@customers-api/core';
import { clientRequestIdOf } from '../request-id.js';
import { pathOf } from '../request-target.js';
import { loggedErrorBody, loggedRequestBody } from './request-body.js';
import type { RequestLogRecorder } from './request-log-recorder.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** A 4xx/5xx answer's `{ error, message }` as JSON text, kept by onSend for the request log. */
    loggedErrorBody: string | null;
  }
}

/** The seller context as the server's key lookups build it: with the key's id (http/auth.ts `sellerOf`). */
export type KeyedSellerContext = SellerContext & { keyId?: string; mode?: string };

const WRITES = new Set(['POST', 'PATCH', 'PUT']);

/**
 * Records every request of this scope (the public API) that authenticated with a seller's key, after its answer:
 * two callback hooks that read what the request already has and push one object onto the recorder's buffer.
 */
export function registerRequestLogging(app: FastifyInstance, recorder: RequestLogRecorder, now: () => Date): void {
  app.decorateRequest('loggedErrorBody', null);
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && request.seller) request.loggedErrorBody = loggedErrorBody(payload);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const seller = request.seller as KeyedSellerContext | null;
    if (seller) {
      const version = reply.getHeader(API_VERSION_HEADER);
      recorder.record({
        sellerId: seller.sellerId,
        occurredAt: now().toISOString(),
        method: request.method,
        path: pathOf(request.url),
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        keyId: seller.keyId ?? null,
        requestId: String(request.id),
        clientRequestId: clientRequestIdOf(request),
        apiVersion: typeof version === 'string' ? version : seller.apiVersion ?? null,
        // Test keys are another engineer's (issue 39): their context's mode when it has one, else live.
        mode: seller.mode === 'test' ? 'test' : 'live',
        requestBody: WRITES.has(request.method) ? loggedRequestBody(request.body as Uint8Array | undefined) : null,
        errorBody: request.loggedErrorBody,
      });
    }
    done();
  });
}
