import type { FastifyInstance } from 'fastify';
import { API_VERSION_HEADER, resolveApiVersion } from '@customers-api/core';
import { headerReader } from './header-reader.js';

/**
 * Core's `Customers-Version` rule on every route of the scope it is registered in, before the API key (register it
 * before the auth hook): the answer carries the version applied, whatever it is, and a version core refuses is its
 * 400. Unknown paths and other methods are core's own answers, which carry it already.
 */
export function registerApiVersion(app: FastifyInstance, now: () => Date): void {
  // A callback hook, like the request id's: no promise per request for one header.
  app.addHook('onRequest', (request, reply, done) => {
    const { version, error } = resolveApiVersion(headerReader(request.headers), now);
    reply.header(API_VERSION_HEADER, version);
    done(error);
  });
}
