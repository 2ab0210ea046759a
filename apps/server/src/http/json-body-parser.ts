import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES, readJsonBody } from '@customers-api/core';
import { headerReader } from './header-reader.js';

const METHODS_WITH_BODY = new Set(['POST', 'PATCH']);

/**
 * One parser for every content type, so that core decides (415 / 413 / 400, in its order and words).
 * Fastify stops reading at BODY_LIMIT_BYTES; that error is mapped to the same 413 in to-api-error.ts.
 * Bodies of other methods (DELETE) are not part of the API and are ignored, as in core's handler.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
    if (!METHODS_WITH_BODY.has(request.method)) {
      done(null, undefined);
      return;
    }
    try {
      done(null, readJsonBody(headerReader(request.headers), body as Buffer, BODY_LIMIT_BYTES));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/** The parsed body, or core's 400 for a request that sent none at all. */
export function requireBody(request: { body: unknown; headers: Parameters<typeof headerReader>[0] }): unknown {
  return request.body === undefined ? readJsonBody(headerReader(request.headers), null) : request.body;
}
